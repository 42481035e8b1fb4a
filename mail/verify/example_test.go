package verify_test

import (
	"fmt"
	"time"

	"skagerrak/mail/verify"
)

// The report of `skagerrak check` for a mail without any signature.
func ExampleCheck() {
	raw := []byte("From: a@example.org\r\nSubject: orders\r\n\r\nGame: norway-1940\r\n")
	at := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	report, err := verify.Check(raw, nil, at)
	fmt.Print(report)
	fmt.Println(err)
	// Output:
	// result:      rejected
	// received:    2026-11-29T12:00:00Z
	// reason:      unsigned
	// detail:      text body without a cleartext signature
	// verify: unsigned: text body without a cleartext signature
}
