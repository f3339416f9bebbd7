package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// builtBinary builds this command once per test binary run, so that tests
// and benchmarks can run the real `schemalab serve` process.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "schemalab-serve-test")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "schemalab")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// startServe runs `schemalab serve` as a process of its own and returns
// it with its connection string.
func startServe(t testing.TB, args ...string) (*exec.Cmd, string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("building the schemalab binary needs the go tool on PATH")
	}
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the connection string: %v", err)
	}
	return cmd, strings.TrimSpace(line)
}

// SIGTERM stops `schemalab serve` within a second whatever it is doing
// (issue 14, item 14): here, a client's unindexed 10,000 × 10,000
// $lookup, which runs for tens of seconds. Shutdown interrupts the
// command, which stops at its next check, and the process exits cleanly
// (status 0: nothing had to be abandoned).
func TestServeStopsWithinASecondOnSIGTERM(t *testing.T) {
	cmd, uri := startServe(t)
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	db := client.Database("slow")
	const n = 10_000
	orders, customers := make([]any, n), make([]any, n)
	for i := range n {
		orders[i] = bson.D{{Key: "customer", Value: int32(i)}}
		customers[i] = bson.D{{Key: "cid", Value: int32(i)}}
	}
	if _, err := db.Collection("orders").InsertMany(context.Background(), orders); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection("customers").InsertMany(context.Background(), customers); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = db.RunCommand(context.Background(), bson.D{{Key: "aggregate", Value: "orders"}, {Key: "pipeline", Value: bson.A{
			bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "customers"}, {Key: "localField", Value: "customer"},
				{Key: "foreignField", Value: "cid"}, {Key: "as", Value: "c"}}}},
			bson.D{{Key: "$count", Value: "n"}}}}, {Key: "cursor", Value: bson.D{}}}).Err()
	}()
	time.Sleep(time.Second) // the $lookup is well under way

	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		took := time.Since(start)
		t.Logf("serve stopped %v after SIGTERM", took)
		if err != nil {
			t.Errorf("serve exited with %v", err)
		}
		if took > time.Second {
			t.Errorf("serve took %v to stop", took)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop within 10 s of SIGTERM")
	}
}
