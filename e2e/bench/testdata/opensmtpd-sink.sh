#!/bin/sh
# OpenSMTPD as the real MTA of the deadline burst benchmark (README,
# Performance), with opensmtpd-sink.conf (or the configuration given), in
# the foreground, as root. It runs with a queue and a control socket of its
# own (a mount namespace with a fresh /run and /var/spool/smtpd), so that
# it starts whatever state the machine's spool is in (smtpd refuses one
# whose mode is not 0711: "error in spool directory setup") and beside a
# running OpenSMTPD (which holds /run/smtpd.sock), and leaves nothing
# behind.
#   e2e/bench/testdata/opensmtpd-sink.sh [CONFIG] &
set -e
conf=$(realpath "${1:-$(dirname "$0")/opensmtpd-sink.conf}")
PATH=$PATH:/usr/sbin:/sbin
mkdir -p /var/spool/smtpd
exec unshare --mount --propagation private sh -c \
  'mount -t tmpfs tmpfs /run && mount -t tmpfs -o mode=0711 tmpfs /var/spool/smtpd && exec smtpd -d -f "$0"' "$conf"
