/* PLACEHOLDER (being written by a helper) */
