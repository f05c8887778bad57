package web

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
)

// FuzzDecodeMessage: any bytes from a page are either refused with an
// error frame's sentence or read as a well-formed message that reads back
// the same; the decoder never panics.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"t":"hello","session":"abc.def"}`,
		`{"t":"watch","channel":"123"}`,
		`{"t":"act","id":1,"channel":"123","kind":"play","point":"D4","game":"99","version":3,"seat":"black"}`,
		`{"t":"act","id":2,"channel":"123","kind":"dead","point":"t19","seat":"white","game":"7","version":2}`,
		`{"t":"start","id":3,"level":"easy","size":9}`,
		`{"t":"start","id":4,"opponent":"bob","size":19}`,
		`{"t":"answer","id":5,"channel":"1","challenge":"2","accept":true}`,
		`{"t":"act","id":6,"channel":"123","kind":"play","point":"3x14x28x17","game":"99","version":3,"seat":"white"}`,
		`{"t":"act","id":7,"channel":"123","kind":"draw","game":"99","version":3,"seat":"black"}`,
		`[1]`, `null`, `{"t":"act","kind":"play","point":"I5"}`, "\x00\xff", `{"t":"watch","channel":"1"} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeMessage(data)
		if err != nil {
			var bad *errBadMessage
			if !errors.As(err, &bad) || !strings.HasSuffix(bad.why, "it was ignored.") {
				t.Fatalf("decodeMessage(%q) = %v, want an error frame's sentence", data, err)
			}
			return
		}
		again, _ := json.Marshal(m)
		m2, err := decodeMessage(again)
		if err != nil || m2 != m {
			t.Fatalf("decodeMessage(%q) = %+v, which reads back as %+v, %v", data, m, m2, err)
		}
		if m.T == "act" && !actionKinds[m.Kind] {
			t.Fatalf("decodeMessage(%q) let through action %q", data, m.Kind)
		}
	})
}

// TestSDKVendored: the Embedded App SDK is vendored whole, as its npm
// package built it (version and licence alongside): every module it
// imports is embedded, so the Activity never asks for a file gobot lacks.
func TestSDKVendored(t *testing.T) {
	if _, err := fs.Stat(assets, "assets/sdk/LICENSE.md"); err != nil {
		t.Fatalf("the SDK's licence: %v", err)
	}
	importRe := regexp.MustCompile(`(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]`)
	n := 0
	err := fs.WalkDir(assets, "assets/sdk", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".mjs") {
			return err
		}
		n++
		data, err := fs.ReadFile(assets, p)
		if err != nil {
			return err
		}
		for _, m := range importRe.FindAllSubmatch(data, -1) {
			dep := path.Join(path.Dir(p), string(m[1]))
			if _, err := fs.Stat(assets, dep); err != nil {
				t.Errorf("%s imports %s, which is not vendored", p, m[1])
			}
		}
		return nil
	})
	if err != nil || n < 10 {
		t.Fatalf("walked %d SDK modules: %v", n, err)
	}
	if ver, _ := fs.ReadFile(assets, "assets/sdk/package.json.mjs"); !strings.Contains(string(ver), `"2.5.0"`) {
		t.Errorf("the vendored SDK is not version 2.5.0 (see assets/sdk/README.md)")
	}
}

// TestDecodeDraughtsActions: a draughts move is a play action's point, in
// the notation /draughts play takes; a dead-stone mark is a Go point only.
func TestDecodeDraughtsActions(t *testing.T) {
	act := func(kind, point string) string {
		return `{"t":"act","id":1,"channel":"123","kind":"` + kind + `","point":"` + point + `","game":"9","version":1,"seat":"white"}`
	}
	for _, tt := range []struct {
		msg string
		ok  bool
	}{
		{act("play", "32-28"), true},
		{act("play", "28x19"), true},
		{act("play", "3x14x28x17"), true},
		{act("play", "D4"), true},
		{act("draw", ""), true},
		{act("play", "32-"), false},
		{act("play", "123-28"), false},
		{act("play", "32 28"), false},
		{act("dead", "32-28"), false},
	} {
		_, err := decodeMessage([]byte(tt.msg))
		if (err == nil) != tt.ok {
			t.Errorf("decodeMessage(%s) = %v, want ok %v", tt.msg, err, tt.ok)
		}
	}
}
