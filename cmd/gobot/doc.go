// Command gobot runs the Discord bot for playing Go, and its offline tools.
//
//	gobot [run]                   run the bot (gateway, or HTTP with GOBOT_MODE=http)
//	gobot console [--user NAME]   play in the terminal through the real commands
//	gobot gtp [--bot LEVEL]       speak GTP on stdin/stdout (for GoGui, twogtp, Sabaki)
//	gobot backup FILE             write a consistent copy of the database to FILE
//	gobot doctor [export N]       list the game records set aside as damaged; export one as SGF
//	gobot arena ...               play bot levels against each other
//	gobot migrate-db --to URL     copy the bbolt database into PostgreSQL
//
// Configuration comes from the environment (see README.md). This package is
// wiring only: it reads the configuration, opens the store, builds the bots
// and hands them to package commands.
package main
