package watch

import (
	"errors"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Notifier sends systemd's notify messages (sd_notify(3)): one datagram a
// message to the unix socket named by NOTIFY_SOCKET.
type Notifier struct {
	addr *net.UnixAddr
}

// NotifierFromEnv returns the notifier systemd asked for by NOTIFY_SOCKET,
// or nil when the process does not run under systemd with Type=notify.
func NotifierFromEnv() *Notifier {
	name := os.Getenv("NOTIFY_SOCKET")
	if name == "" {
		return nil
	}
	if strings.HasPrefix(name, "@") {
		name = "\x00" + name[1:] // an abstract socket
	}
	return &Notifier{addr: &net.UnixAddr{Name: name, Net: "unixgram"}}
}

// Notify sends one message, such as "READY=1" or "STATUS=...". A nil
// notifier sends nothing.
func (n *Notifier) Notify(state string) error {
	if n == nil {
		return nil
	}
	c, err := net.DialUnix("unixgram", nil, n.addr)
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte(state))
	return err
}

// WatchdogInterval is how often systemd wants WATCHDOG=1 (half its
// WatchdogSec, from WATCHDOG_USEC), or 0 when it wants none or asks
// another process (WATCHDOG_PID).
func WatchdogInterval() (time.Duration, error) {
	us := os.Getenv("WATCHDOG_USEC")
	if us == "" {
		return 0, nil
	}
	if pid := os.Getenv("WATCHDOG_PID"); pid != "" && pid != strconv.Itoa(os.Getpid()) {
		return 0, nil
	}
	n, err := strconv.ParseInt(us, 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("watch: WATCHDOG_USEC=" + us + " is not a positive number of microseconds")
	}
	return time.Duration(n) * time.Microsecond / 2, nil
}
