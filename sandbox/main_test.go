package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/schemalab/schemalab/sandbox/wire"
)

// TestMain doubles the test binary as a fake mongod (SCHEMALAB_FAKE_MONGOD
// names its behaviour) and as a schemalab that crashes while it owns a
// mongod (SCHEMALAB_TEST_CRASH).
func TestMain(m *testing.M) {
	if mode := os.Getenv("SCHEMALAB_FAKE_MONGOD"); mode != "" {
		os.Exit(fakeMongod(mode, os.Args[1:]))
	}
	if os.Getenv("SCHEMALAB_TEST_CRASH") != "" {
		os.Exit(crashingOwner())
	}
	os.Exit(m.Run())
}

// fakeMongod behaves like mongod as far as the sandbox can tell: it takes
// mongod's flags, serves the embedded server on --port, writes into
// --dbpath and stops on SIGTERM. Modes: serve, exit-early, port-taken,
// port-taken-once (taken on the first call only), hang (never listens).
func fakeMongod(mode string, args []string) int {
	flags := map[string]string{}
	for i := 0; i+1 < len(args); i++ {
		if len(args[i]) > 2 && args[i][:2] == "--" {
			flags[args[i][2:]] = args[i+1]
		}
	}
	dbpath := flags["dbpath"]
	if dbpath != "" {
		data, _ := json.Marshal(args)
		_ = os.WriteFile(filepath.Join(dbpath, "args.json"), data, 0o600)
		_ = os.WriteFile(filepath.Join(dbpath, "WiredTiger"), []byte("fake data"), 0o600)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)

	if mode == "port-taken-once" {
		marker := filepath.Join(os.Getenv("SCHEMALAB_FAKE_STATE"), "taken-once")
		if _, err := os.Stat(marker); err != nil {
			_ = os.WriteFile(marker, nil, 0o600)
			mode = "port-taken"
		} else {
			mode = "serve"
		}
	}
	switch mode {
	case "exit-early":
		fmt.Fprintln(os.Stderr, "Error parsing command line: unrecognised option '--wiredTigerCacheSizeGB'")
		return 2
	case "port-taken":
		if lp := flags["logpath"]; lp != "" {
			line := `{"t":{"$date":"2026-01-01T00:00:00.000+00:00"},"s":"E","c":"NETWORK","id":23024,"ctx":"initandlisten","msg":"Failed to set up listener","attr":{"error":{"code":9001,"codeName":"SocketException","errmsg":"Address already in use"}}}`
			_ = os.WriteFile(lp, []byte(line+"\n"), 0o600)
		}
		return exitNetError
	case "hang":
		<-stop
		return 0
	case "serve":
		port, _ := strconv.Atoi(flags["port"])
		srv, err := wire.Start(context.Background(), wire.Options{Port: port, Bind: flags["bind_ip"]})
		if err != nil {
			fmt.Fprintln(os.Stderr, "fake mongod:", err)
			return 1
		}
		<-stop
		_ = srv.Close()
		return 0
	}
	fmt.Fprintln(os.Stderr, "fake mongod: unknown mode", mode)
	return 3
}

// crashingOwner opens a mongod sandbox, prints its data directory and
// mongod's pid, and waits to be killed without cleaning up.
func crashingOwner() int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Open(ctx, Config{Kind: KindMongod})
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(w, "%s %d\n", b.mongod.dir, b.mongod.cmd.Process.Pid)
	w.Flush()
	time.Sleep(time.Minute)
	return 0
}
