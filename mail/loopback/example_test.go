package loopback_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"skagerrak/mail/imapbox"
	"skagerrak/mail/loopback"
	"skagerrak/mail/smtpout"
)

// The demo's mail loop on loopback: a player submits over SMTP, the SMTP
// server delivers into the umpire's IMAP INBOX, the umpire's box fetches it
// and moves it to Processed.
func Example() {
	imapSrv, err := loopback.StartIMAP(loopback.IMAPOptions{
		Users: []loopback.IMAPUser{{Username: "umpire@skagerrak.test", Password: "demo"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer imapSrv.Close()
	smtpSrv, err := loopback.StartSMTP(loopback.SMTPOptions{
		Deliver: func(d loopback.Delivery) error {
			for _, to := range d.To {
				if _, err := imapSrv.Append(to, "INBOX", d.Data); err != nil {
					return err
				}
			}
			return nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer smtpSrv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	sender, err := smtpout.New(smtpout.Config{Addr: smtpSrv.Addr(), TLS: smtpout.TLSNone})
	if err != nil {
		log.Fatal(err)
	}
	orders := "From: kriegsmarine@example.org\r\nTo: umpire@skagerrak.test\r\nSubject: orders\r\n\r\nGame: weserubung\r\nPhase: 1\r\n"
	if err := sender.Send(ctx, "kriegsmarine@example.org", []string{"umpire@skagerrak.test"}, []byte(orders)); err != nil {
		log.Fatal(err)
	}

	stateDir, err := os.MkdirTemp("", "imapbox-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(stateDir)
	box, err := imapbox.Open(ctx, imapbox.Config{
		Addr: imapSrv.Addr(), Username: "umpire@skagerrak.test", Password: "demo",
		TLS: imapbox.TLSNone, StateDir: stateDir,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer box.Close()
	if err := box.Wait(ctx); err != nil { // returns at once: mail is there
		log.Fatal(err)
	}
	msgs, err := box.Fetch(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range msgs {
		fmt.Println(strings.Contains(string(m.Raw), "Game: weserubung"))
		if err := box.MoveProcessed(ctx, m.UIDValidity, m.UID); err != nil {
			log.Fatal(err)
		}
	}
	processed, err := imapSrv.Messages("umpire@skagerrak.test", box.Processed())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(processed), "in", box.Processed())
	// Output:
	// true
	// 1 in skagerrak/processed
}
