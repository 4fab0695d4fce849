/* sharpness_redact(): every secret of a URI replaced wherever it stands in
 * a text, and nothing else changed.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "sharpness-tool-redact.h"

static int failures;

static void
expect (const char *in, const char *want)
{
  char *got = sharpness_redact (in);

  if (strcmp (got, want) != 0) {
    printf ("FAIL %s\n  got  %s\n  want %s\n", in, got, want);
    failures++;
  } else {
    printf ("ok   %s -> %s\n", in, got);
  }
  g_free (got);
}

int
main (void)
{
  /* Query values of credential-like names, in any case and position. */
  expect ("srt://10.0.0.1:9000?mode=caller&passphrase=s3cr3t-pass&latency=200",
      "srt://10.0.0.1:9000?mode=caller&passphrase=REDACTED&latency=200");
  expect ("rtsp://cam/live?token=abc", "rtsp://cam/live?token=REDACTED");
  expect ("https://cdn.example/x/index.m3u8?exp=17&sig=ff00;Key-Pair-Id=K1",
      "https://cdn.example/x/index.m3u8?exp=17&sig=REDACTED;"
      "Key-Pair-Id=REDACTED");
  expect ("https://h/a?X-Amz-Signature=1&X-Amz-Credential=2&api_key=3",
      "https://h/a?X-Amz-Signature=REDACTED&X-Amz-Credential=REDACTED&"
      "api_key=REDACTED");
  expect ("http://h/?PASSWORD=x&Auth=y&client_secret=z&empty=&token=",
      "http://h/?PASSWORD=REDACTED&Auth=REDACTED&client_secret=REDACTED&"
      "empty=&token=");
  /* User information, with or without a password. */
  expect ("rtsp://admin:hunter2@192.168.1.2:554/stream1",
      "rtsp://REDACTED@192.168.1.2:554/stream1");
  expect ("http://user@alertmanager:9093/api/v2/alerts",
      "http://REDACTED@alertmanager:9093/api/v2/alerts");
  /* udp:// and rtp:// take a multicast source there, not a credential. */
  expect ("udp://192.0.2.1@239.1.1.1:5000", "udp://192.0.2.1@239.1.1.1:5000");
  expect ("RTP://192.0.2.1@239.1.1.1:5000?token=x",
      "RTP://192.0.2.1@239.1.1.1:5000?token=REDACTED");
  expect ("xudp://a:b@h/", "xudp://REDACTED@h/");
  /* Inside a sentence, quoted, in markup: the rest stays. */
  expect ("Could not open resource \"srt://h:1?passphrase=p w\" for reading.",
      "Could not open resource \"srt://h:1?passphrase=REDACTED w\" for "
      "reading.");
  expect ("<a href='http://u:p@h/?token=t'>x</a> and ok? yes=1",
      "<a href='http://REDACTED@h/?token=REDACTED'>x</a> and ok? yes=1");
  expect ("http://h/p?a=1#token=frag", "http://h/p?a=1#token=frag");
  /* Nothing to hide: unchanged; an '@' outside an authority is kept. */
  expect ("udp://@239.1.1.1:5000", "udp://@239.1.1.1:5000");
  expect ("http://@h/", "http://@h/");
  expect ("file:///srv/a@b/clip.ts?x=1", "file:///srv/a@b/clip.ts?x=1");
  expect ("mail me at ops@example.org", "mail me at ops@example.org");
  expect ("", "");
  if (sharpness_redact (NULL) != NULL) {
    printf ("FAIL NULL\n");
    failures++;
  }
  printf ("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
