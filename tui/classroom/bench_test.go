package classroom

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
)

// BenchmarkLoginToFirstFrame measures a student's wait from dialling the
// classroom to the first frame of the course on their terminal: TCP and
// SSH handshakes, key authentication, the PTY and shell requests, the
// session's TUI and its first render, over loopback.
func BenchmarkLoginToFirstFrame(b *testing.B) {
	var keys []gossh.Signer
	for range 4 {
		keys = append(keys, newKey(b))
	}
	srv := startClassroom(b, Config{Auth: Auth{AllowKeysFile: allowKeys(b, keys...)}, MaxStudents: 1000})
	var worst time.Duration
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		client, _, err := dialSSH(srv.Addr(), loginOptions{user: "student" + strconv.Itoa(i), key: keys[i%len(keys)]})
		if err != nil {
			b.Fatal(err)
		}
		sess, err := client.NewSession()
		if err != nil {
			b.Fatal(err)
		}
		if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
			b.Fatal(err)
		}
		out, err := sess.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := sess.Shell(); err != nil {
			b.Fatal(err)
		}
		// The first frame is the catalog: wait for its heading.
		r := bufio.NewReader(out)
		var seen bytes.Buffer
		for !bytes.Contains(seen.Bytes(), []byte("Lessons")) {
			chunk := make([]byte, 4096)
			n, err := r.Read(chunk)
			if err != nil {
				b.Fatalf("no first frame: %v", err)
			}
			seen.Write(chunk[:n])
		}
		worst = max(worst, time.Since(start))
		b.StopTimer()
		sess.Close()
		client.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/login")
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms-worst")
}

// BenchmarkBucketLessonClass drives simulated students through SSH
// sessions, at once: each opens the bucket lesson and runs every step
// that has code, pressing enter and waiting for the result on its screen
// before going on. It reports the step latencies the students saw
// (enter to result) and the memory of the classroom server, which runs
// in a process of its own (this test binary again, serving as
// `schemalab classroom` does: a lesson's template is built when its first
// student opens it), so that the simulated terminals are not counted.
//
// CLASSROOM_BENCH_STUDENTS=1,30 picks the class sizes (default 1). With
// CLASSROOM_BENCH_THINK=10s each student reads for a while before every
// step (uniformly 0.5 to 1.5 times that), as a room does, instead of all
// of them pressing enter at once. CLASSROOM_BENCH_PREPARE=all builds
// every lesson's template before the students arrive, as `schemalab
// classroom --prepare all` does. With CLASSROOM_BENCH_NO_TEMPLATES=1
// the students run the lesson's setup themselves, as on a server without
// snapshots.
//
//	CLASSROOM_BENCH_STUDENTS=1,30 go test -run '^$' -bench BucketLessonClass -benchtime 1x -timeout 30m ./tui/classroom
func BenchmarkBucketLessonClass(b *testing.B) {
	counts := []int{1}
	if s := os.Getenv("CLASSROOM_BENCH_STUDENTS"); s != "" {
		counts = nil
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				b.Fatal(err)
			}
			counts = append(counts, n)
		}
	}
	for _, n := range counts {
		b.Run(fmt.Sprintf("students=%d", n), func(b *testing.B) {
			for range b.N {
				runClass(b, n)
			}
		})
	}
}

func runClass(b *testing.B, n int) {
	var think time.Duration
	if s := os.Getenv("CLASSROOM_BENCH_THINK"); s != "" {
		var err error
		if think, err = time.ParseDuration(s); err != nil {
			b.Fatal(err)
		}
	}
	cat := builtinCatalog(b)
	l := cat.Find("bucket")
	var keys []gossh.Signer
	for range n {
		keys = append(keys, newKey(b))
	}
	srv := startServerProcess(b, allowKeys(b, keys...), n)
	prefix := fmt.Sprintf("b%d", time.Now().UnixNano()%1e6)

	peak := make(chan rssPeaks)
	stopSampling := make(chan struct{})
	go sampleRSS(srv.pid, stopSampling, peak)

	var mu sync.Mutex
	var latencies []time.Duration
	stale, alone := 0, 0
	aloneShown := map[int]bool{}
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 17))
			pause := func() {
				if think > 0 {
					time.Sleep(think/2 + time.Duration(rng.Int64N(int64(think))))
				}
			}
			tm := login(b, srv.addr, loginOptions{user: fmt.Sprintf("%s-%d", prefix, i), key: keys[i], w: 160, h: 45})
			tm.openLesson(l.Title)
			for s := range l.Steps {
				if s > 0 {
					tm.send("n")
					tm.waitFor(fmt.Sprintf(`Step %d of %d`, s+1, len(l.Steps)), time.Minute)
				}
				if !hasCode(&l.Steps[s]) {
					continue
				}
				pause()
				if strings.Contains(tm.screen(), "ran in") {
					// Seen now and then on a loaded machine: the step comes
					// up with a result (an empty one) before enter. Its time
					// cannot be measured; it is counted, and the first one
					// shown.
					mu.Lock()
					if stale++; stale == 1 {
						b.Logf("student %d: step %d shows a result before it ran:\n%s", i, s+1, tm.screen())
					}
					mu.Unlock()
					continue
				}
				t0 := time.Now()
				tm.send("enter")
				tm.waitFor(`ran in \d+`, 10*time.Minute)
				d := time.Since(t0)
				// A step whose blocks run one after the other shows the
				// first result while the rest run: its run is over when
				// the status line no longer offers to cancel it.
				tm.waitForNot(`ctrl\+c cancels`, 10*time.Minute)
				// A step that broke (a heap guard stopping an ordinary
				// step, say) would make a fast figure meaningless. (An
				// exercise's starter code fails its check on purpose.)
				screen := tm.screen()
				if strings.Contains(screen, "InterruptedError") || l.Steps[s].Exercise == nil && strings.Contains(screen, "✗") {
					b.Errorf("student %d, step %d did not run cleanly:\n%s", i, s+1, screen)
				}
				// A step the room shared says so beside its time; one
				// without the note ran in the student's own session.
				whose := "room"
				if !strings.Contains(screen, "whole room") {
					whose = "alone"
				}
				verbose := os.Getenv("CLASSROOM_BENCH_VERBOSE") != ""
				if verbose {
					fmt.Fprintf(os.Stderr, "student %d step %d: %v %s\n", i, s+1, d, whose)
				}
				mu.Lock()
				latencies = append(latencies, d)
				if whose == "alone" {
					alone++
					if verbose && !aloneShown[s] {
						aloneShown[s] = true
						fmt.Fprintf(os.Stderr, "student %d, step %d, run alone:\n%s\n", i, s+1, screen)
					}
				}
				mu.Unlock()
			}
			tm.send("q")
			tm.wait(time.Minute)
		}()
	}
	wg.Wait()
	total := time.Since(start)
	close(stopSampling)
	rss := <-peak

	slices.Sort(latencies)
	pct := func(p float64) float64 {
		i := min(int(p*float64(len(latencies))), len(latencies)-1)
		return float64(latencies[i].Microseconds()) / 1000
	}
	b.ReportMetric(float64(stale), "steps-unmeasured")
	b.ReportMetric(float64(alone), "steps-run-alone")
	b.ReportMetric(pct(0.50), "ms-p50")
	b.ReportMetric(pct(0.95), "ms-p95")
	b.ReportMetric(pct(1), "ms-max")
	b.ReportMetric(float64(rss.server)/(1<<20), "MB-server-peak-RSS")
	b.ReportMetric(float64(rss.children)/(1<<20), "MB-students-peak-RSS")
	b.ReportMetric(float64(rss.childrenPSS)/(1<<20), "MB-students-peak-PSS")
	b.ReportMetric(float64(rss.child)/(1<<20), "MB-one-student-peak-RSS")
	b.ReportMetric(float64(rss.total)/(1<<20)/float64(n), "MB-per-student")
	b.ReportMetric(float64(procStatus(srv.pid, "VmHWM"))/(1<<20), "MB-server-VmHWM")
	b.ReportMetric(float64(srv.startRSS)/(1<<20), "MB-server-RSS-before")
	b.ReportMetric(total.Seconds(), "s-whole-class")
}

// benchServerEnv names the authorized_keys file of the classroom server
// that a re-executed test binary runs (serveForBenchmark).
const benchServerEnv = "CLASSROOM_BENCH_SERVE"

type serverProcess struct {
	addr     string
	pid      int
	startRSS int64
}

// startServerProcess runs the classroom server of a benchmark in a
// process of its own until the benchmark ends.
func startServerProcess(b *testing.B, keysFile string, students int) *serverProcess {
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), benchServerEnv+"="+keysFile, "CLASSROOM_BENCH_MAX="+strconv.Itoa(students))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close() // the server stops when its stdin ends
		if err := cmd.Wait(); err != nil {
			b.Errorf("classroom server process: %v", err)
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		b.Fatalf("the classroom server process did not start: %q %v", line, err)
	}
	go io.Copy(io.Discard, stdout)
	return &serverProcess{addr: addr, pid: cmd.Process.Pid, startRSS: procStatus(cmd.Process.Pid, "VmRSS")}
}

// serveForBenchmark is the classroom server of startServerProcess: the
// package's embedded sandbox and templates, every lesson's template
// built first as `schemalab classroom` builds them, then the address on
// stdout, until stdin ends.
func serveForBenchmark(keysFile string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "benchmark classroom server:", err)
		os.Exit(1)
	}
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		fail(errs[0])
	}
	state, err := os.MkdirTemp("", "classroom-bench")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(state)
	TuneCollector(os.Getenv)
	students, _ := strconv.Atoi(os.Getenv("CLASSROOM_BENCH_MAX"))
	cfg := Config{Listen: "127.0.0.1:0", StateDir: state, Auth: Auth{AllowKeysFile: keysFile}, Catalog: cat,
		MaxStudents: students, ScriptTimeout: 5 * time.Minute, Sandbox: prefixSandbox(sharedBackend),
		Student: testStudent, ServerURI: sharedBackend.URI(), Logins: logins(sharedBackend), Limits: testLimits,
		Seeds: sharedTemplates.Seeds, Room: room.New(room.Options{})}
	switch {
	case os.Getenv("CLASSROOM_BENCH_NO_TEMPLATES") != "":
		cfg.Seeds = nil
	case os.Getenv("CLASSROOM_BENCH_PREPARE") == "all":
		sharedTemplates.Prepare(context.Background(), cat.Lessons)
		fallthrough
	default:
		cfg.Prepare = sharedTemplates.Start
	}
	srv, err := New(cfg)
	if err != nil {
		fail(err)
	}
	// CLASSROOM_BENCH_CPUPROFILE and CLASSROOM_BENCH_HEAPPROFILE name
	// files for the server's CPU profile while the class runs and its heap
	// profile (live objects) once the students have left.
	if p := os.Getenv("CLASSROOM_BENCH_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	go srv.Serve()
	fmt.Println("listening on " + srv.Addr())
	io.Copy(io.Discard, os.Stdin)
	if p := os.Getenv("CLASSROOM_BENCH_HEAPPROFILE"); p != "" {
		runtime.GC()
		f, err := os.Create(p)
		if err != nil {
			fail(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			fail(err)
		}
		f.Close()
	}
	srv.Close()
}

func hasCode(st *lessons.Step) bool {
	return slices.ContainsFunc(st.Blocks, func(bl lessons.Block) bool { return bl.Kind != lessons.Prose })
}

// rssPeaks are the largest resident sets seen: the server's, the sum of
// its students' processes', one student's process's, and the server's
// and students' together at one moment.
type rssPeaks struct{ server, children, child, total, childrenPSS int64 }

// sampleRSS reads the resident set (VmRSS) of process pid and of its
// children, the students' processes, every 50 ms until stop, and sends
// the largest.
func sampleRSS(pid int, stop <-chan struct{}, peak chan<- rssPeaks) {
	var most rssPeaks
	for round := 0; ; round++ {
		server := procStatus(pid, "VmRSS")
		var children, pss int64
		for _, c := range childrenOf(pid) {
			rss := procStatus(c, "VmRSS")
			children += rss
			most.child = max(most.child, rss)
			if round%10 == 0 {
				pss += smapsRollup(c, "Pss")
			}
		}
		most.childrenPSS = max(most.childrenPSS, pss)
		most.server = max(most.server, server)
		most.children = max(most.children, children)
		most.total = max(most.total, server+children)
		select {
		case <-stop:
			peak <- most
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// childrenOf lists the child processes of pid (Linux: the children of
// each of its threads), but those that have not run their own program
// yet: a child between its fork and its exec shares its parent's memory,
// and would count the parent's resident set as its own.
func childrenOf(pid int) []int {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	self, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	var kids []int
	for _, t := range tasks {
		raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/children", pid, t.Name()))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(raw)) {
			k, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", k)); !bytes.Equal(cmdline, self) {
				kids = append(kids, k)
			}
		}
	}
	return kids
}

// smapsRollup is a kB field of /proc/PID/smaps_rollup (Pss: the resident
// set with pages shared among processes, such as the program's own code,
// divided among them), in bytes.
func smapsRollup(pid int, field string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// procStatus is a kB field of /proc/PID/status (VmRSS, VmHWM: the peak
// resident set since the process started), in bytes (0 where there is
// none).
func procStatus(pid int, field string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
