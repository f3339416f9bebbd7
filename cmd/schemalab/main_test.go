package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/lessons/locale"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestParseCommandLine(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		wantG    globalOptions
		wantSub  string
		wantRest []string
	}{
		{
			name:  "defaults",
			wantG: globalOptions{DBPrefix: "schemalab_", ScriptHeapMB: 512},
		},
		{
			name:  "environment",
			env:   map[string]string{"MONGODB_URI": "mongodb://db:27017", "NO_COLOR": "1"},
			wantG: globalOptions{URI: "mongodb://db:27017", DBPrefix: "schemalab_", NoColor: true, ScriptHeapMB: 512},
		},
		{
			name:     "flags before the subcommand win over the environment",
			args:     []string{"--uri", "mongodb://flag/", "--no-color", "shell", "x.js"},
			env:      map[string]string{"MONGODB_URI": "mongodb://env/"},
			wantG:    globalOptions{URI: "mongodb://flag/", DBPrefix: "schemalab_", NoColor: true, ScriptHeapMB: 512},
			wantSub:  "shell",
			wantRest: []string{"x.js"},
		},
		{
			name:     "global flags among the subcommand's own",
			args:     []string{"shell", "--uri=mongodb://a/", "--db", "shop", "--db-prefix", "p_", "-"},
			wantG:    globalOptions{URI: "mongodb://a/", DBPrefix: "p_", ScriptHeapMB: 512},
			wantSub:  "shell",
			wantRest: []string{"--db", "shop", "-"},
		},
		{
			name:     "the script heap cap",
			args:     []string{"run", "--script-heap", "64", "tree"},
			wantG:    globalOptions{DBPrefix: "schemalab_", ScriptHeapMB: 64},
			wantSub:  "run",
			wantRest: []string{"tree"},
		},
		{
			name:     "everything after -- is the subcommand's",
			args:     []string{"serve", "--port", "0", "--", "--uri", "x"},
			wantG:    globalOptions{DBPrefix: "schemalab_", ScriptHeapMB: 512},
			wantSub:  "serve",
			wantRest: []string{"--port", "0", "--", "--uri", "x"},
		},
		{
			name:  "the language from the locale, LC_MESSAGES before LANG",
			env:   map[string]string{"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "id_ID.UTF-8"},
			wantG: globalOptions{DBPrefix: "schemalab_", ScriptHeapMB: 512, Lang: locale.Choice{Lang: "id", From: "LC_MESSAGES", Value: "id_ID.UTF-8", Known: true}},
		},
		{
			name:     "--lang wins over the locale, among the subcommand's flags too",
			args:     []string{"run", "--lang", "ru", "--check"},
			env:      map[string]string{"LC_ALL": "id_ID.UTF-8"},
			wantG:    globalOptions{DBPrefix: "schemalab_", ScriptHeapMB: 512, Lang: locale.Choice{Lang: "ru", From: "--lang", Value: "ru", Known: true}},
			wantSub:  "run",
			wantRest: []string{"--check"},
		},
		{
			name:  "an unknown locale is English, no error",
			env:   map[string]string{"LANG": "de_DE.UTF-8"},
			wantG: globalOptions{DBPrefix: "schemalab_", ScriptHeapMB: 512, Lang: locale.Choice{Lang: "en", From: "LANG", Value: "de_DE.UTF-8"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, sub, rest, err := parseCommandLine(tc.args, env(tc.env), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if g.L.Lang() != g.Lang.Lang {
				t.Errorf("the localizer speaks %s, the language chosen is %s", g.L.Lang(), g.Lang.Lang)
			}
			if g.heap == nil || g.lessonHeap == nil {
				t.Error("no heap share for the process's shells")
			}
			g.L, g.heap, g.lessonHeap = nil, nil, nil
			if tc.wantG.Lang == (locale.Choice{}) {
				tc.wantG.Lang = locale.Choice{Lang: "en", Known: true}
			}
			if g != tc.wantG || sub != tc.wantSub || !reflect.DeepEqual(rest, tc.wantRest) {
				t.Fatalf("got %+v %q %q, want %+v %q %q", g, sub, rest, tc.wantG, tc.wantSub, tc.wantRest)
			}
		})
	}
}

func TestBadCommandLinesExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"frobnicate"},
		{"--sandbox", "docker"},
		{"--no-such-flag"},
		{"serve", "--bind", "0.0.0.0"},
		{"serve", "--port", "70000"},
		{"serve", "extra"},
		{"shell", "--script-heap", "0"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, env(nil), &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, stderr.String())
		}
		if stderr.Len() == 0 {
			t.Errorf("%q: nothing on stderr", args)
		}
	}
	var stderr bytes.Buffer
	run(context.Background(), []string{"serve", "--bind", "0.0.0.0"}, env(nil), io.Discard, &stderr)
	if !strings.Contains(stderr.String(), "--bind-any") {
		t.Errorf("non-loopback refusal does not mention --bind-any: %q", stderr.String())
	}
}

func TestVersion(t *testing.T) {
	var stdout bytes.Buffer
	if code := run(context.Background(), []string{"version"}, env(nil), &stdout, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "schemalab ") || !strings.HasPrefix(lines[1], "go go1.") || !strings.HasPrefix(lines[2], "mongo-driver ") {
		t.Fatalf("version output %q", stdout.String())
	}
}

func TestServePrintsURIFirstAndStopsCleanly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	exit := make(chan int)
	go func() {
		exit <- run(ctx, []string{"serve"}, env(nil), pw, io.Discard)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	uri := strings.TrimSpace(line)
	if !strings.HasPrefix(uri, "mongodb://127.0.0.1:") || !strings.HasSuffix(uri, "/") {
		t.Fatalf("first line %q", line)
	}
	go io.Copy(io.Discard, pr)

	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Ping(ctx, nil); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	client.Disconnect(ctx)

	cancel() // what SIGINT does through signal.NotifyContext
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServePortInUseExitsOne(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"serve", "--port", port}, env(nil), io.Discard, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr.String(), "already in use") {
		t.Fatalf("stderr %q", stderr.String())
	}
}
