import sys; print('skipped: not written yet'); sys.exit(77)
