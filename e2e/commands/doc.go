// Package commands holds the end-to-end tests of skagerrak's command
// lines as a host types them: demo, config example and check, check of a
// mail, guide, host key, config mailserver, rules, status and the set
// aside games, names a host mistyped (answered with the names there are),
// README's own commands, and where the daemon's log goes. They run the
// built binary with the test rulesets (binarytest.MainTestRules).
package commands
