package classroom

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/lessons"
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
// (enter to result) and the peak resident memory of the process, which
// is the classroom server plus the simulated terminals.
//
// CLASSROOM_BENCH_STUDENTS=1,30 picks the class sizes (default 1: thirty
// students replaying the lesson hold about 10 GB today). With
// CLASSROOM_BENCH_THINK=10s each student reads for a while before every
// step (uniformly 0.5 to 1.5 times that), as a room does, instead of all
// of them pressing enter at once.
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
	srv := startClassroom(b, Config{Auth: Auth{AllowKeysFile: allowKeys(b, keys...)}, Catalog: cat,
		MaxStudents: n, ScriptTimeout: 5 * time.Minute})
	prefix := fmt.Sprintf("b%d", time.Now().UnixNano()%1e6)

	peak := make(chan int64)
	stopSampling := make(chan struct{})
	go sampleRSS(stopSampling, peak)

	var mu sync.Mutex
	var latencies []time.Duration
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
			tm := login(b, srv.Addr(), loginOptions{user: fmt.Sprintf("%s-%d", prefix, i), key: keys[i], w: 160, h: 45})
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
					b.Errorf("step %d shows a result before it ran:\n%s", s+1, tm.screen())
					return
				}
				t0 := time.Now()
				tm.send("enter")
				tm.waitFor(`ran in \d+`, 10*time.Minute)
				d := time.Since(t0)
				if os.Getenv("CLASSROOM_BENCH_VERBOSE") != "" {
					b.Logf("student %d step %d: %v", i, s+1, d)
				}
				mu.Lock()
				latencies = append(latencies, d)
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
	b.ReportMetric(pct(0.50), "ms-p50")
	b.ReportMetric(pct(0.95), "ms-p95")
	b.ReportMetric(pct(1), "ms-max")
	b.ReportMetric(float64(rss)/(1<<20), "MB-peak-RSS")
	b.ReportMetric(total.Seconds(), "s-whole-class")
}

func hasCode(st *lessons.Step) bool {
	return slices.ContainsFunc(st.Blocks, func(bl lessons.Block) bool { return bl.Kind != lessons.Prose })
}

// sampleRSS reads the process's resident set every 50 ms until stop and
// sends the largest.
func sampleRSS(stop <-chan struct{}, peak chan<- int64) {
	var most int64
	for {
		most = max(most, rss())
		select {
		case <-stop:
			peak <- most
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// rss is VmRSS from /proc/self/status, in bytes (0 where there is none).
func rss() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
