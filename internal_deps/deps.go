//go:build tools

package main
import (
 _ "github.com/emersion/go-imap/v2"
 _ "github.com/emersion/go-imap/v2/imapclient"
 _ "github.com/emersion/go-imap/v2/imapserver"
 _ "github.com/emersion/go-imap/v2/imapserver/imapmemserver"
 _ "github.com/emersion/go-message"
 _ "github.com/emersion/go-smtp"
 _ "github.com/emersion/go-sasl"
 _ "github.com/ProtonMail/go-crypto/openpgp/v2"
 _ "github.com/spf13/viper"
 _ "github.com/spf13/cobra"
 _ "golang.org/x/sys/unix"
 _ "golang.org/x/image/font"
)
func main(){}
