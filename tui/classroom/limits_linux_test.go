package classroom

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A student's process, every thread of it, runs at a lower priority than
// the room's server, which runs the work the whole room waits for; a
// thread it starts later (running a step) keeps that priority.
func TestAStudentsProcessYieldsTheProcessorsToTheRoom(t *testing.T) {
	alice := newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}})
	a := login(t, srv.Addr(), loginOptions{user: "alice", key: alice, w: 160, h: 45})
	pid := studentPid(t, srv, "alice")
	checkNice := func() {
		t.Helper()
		dir := "/proc/" + strconv.Itoa(pid) + "/task"
		tasks, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			raw, err := os.ReadFile(dir + "/" + task.Name() + "/stat")
			if err != nil {
				continue // the thread ended
			}
			// The fields after the command's closing parenthesis: nice is
			// the 19th field of the line, the 17th after it.
			fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
			if nice, _ := strconv.Atoi(fields[16]); nice != studentNice {
				t.Errorf("thread %s of alice's process runs at nice %d, want %d", task.Name(), nice, studentNice)
			}
		}
	}
	checkNice()
	a.openLesson("The Outlier Pattern")
	a.send("enter")
	a.waitFor(`ran in \d+`, time.Minute)
	checkNice()
}
