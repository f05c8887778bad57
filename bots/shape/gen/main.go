// Command gen fits the shape model to the professional game records of
// Debian's goban-original-games and writes it as Go source:
//
//	apt-get install goban-original-games
//	go run ./bots/shape/gen
//
// Every tenth record, in name order, is held out and only used to report
// how often the model predicts the move played.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/gobot-dev/gobot/bots/shape"
)

func main() {
	records := flag.String("records", "/usr/share/goban", "directory of SGF records (.sgf and .mgt)")
	out := flag.String("o", "bots/shape/gammas.go", "Go source file to write")
	outLarge := flag.String("large", "bots/shape/gammas_large.go", "Go source file to write the model with large patterns to")
	flag.Parse()
	log.SetFlags(0)
	src, large, err := shape.Generate(*records, os.Stderr)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*outLarge, large, 0o644); err != nil {
		log.Fatal(err)
	}
}
