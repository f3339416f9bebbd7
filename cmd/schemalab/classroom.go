package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	charmlog "charm.land/log/v2"

	"github.com/charmbracelet/colorprofile"
	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/safefile"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
	"github.com/schemalab/schemalab/sandbox/wire"
	"github.com/schemalab/schemalab/tui/classroom"
)

// runClassroom implements `schemalab classroom [--listen ADDR] [--bind-any]
// [--allow-keys FILE | --password-file FILE | --open] [--max-students N]
// [--instructor NAME --instructor-keys FILE] [--timeout D] [--prepare
// LESSONS] [--student-memory MB --student-cpu D --student-files N
// --student-threads N] [--quota-storage MB --quota-cursors N
// --quota-connections N --quota-script-heap MB] [--max-startups S:R:F
// --max-startups-per-address N --login-grace-time D]`: the course over
// SSH, a process per student, with the live dashboard in this terminal.
func runClassroom(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schemalab classroom")
	listen := fs.String("listen", classroom.DefaultListen, g.t(msgFlagListen, nil))
	bindAny := fs.Bool("bind-any", false, g.t(msgFlagBindAnyListen, nil))
	allowKeys := fs.String("allow-keys", "", g.t(msgFlagAllowKeys, nil))
	passwordFile := fs.String("password-file", "", g.t(msgFlagPasswordFile, nil))
	open := fs.Bool("open", false, g.t(msgFlagOpen, nil))
	maxStudents := fs.Int("max-students", classroom.DefaultMaxStudents, g.t(msgFlagMaxStudents, nil))
	instructor := fs.String("instructor", "", g.t(msgFlagInstructor, nil))
	instructorKeys := fs.String("instructor-keys", "", g.t(msgFlagInstructorKeys, nil))
	maxStartups := fs.String("max-startups", fmt.Sprintf("%d:%d:%d", classroom.DefaultStartups.Start, classroom.DefaultStartups.Rate, classroom.DefaultStartups.Full), g.t(msgFlagMaxStartups, nil))
	startups := classroom.DefaultStartups
	fs.IntVar(&startups.PerAddress, "max-startups-per-address", startups.PerAddress, g.t(msgFlagStartupsPerAddress, nil))
	fs.DurationVar(&startups.Grace, "login-grace-time", startups.Grace, g.t(msgFlagLoginGrace, nil))
	timeout := fs.Duration("timeout", 30*time.Second, g.t(msgFlagTimeoutBlock, nil))
	prepare := fs.String("prepare", "", g.t(msgFlagPrepare, nil))
	limits := classroom.DefaultLimits
	quotas := classroom.DefaultQuotas
	storageMB := fs.Int64("quota-storage", quotas.Storage>>20, g.t(msgFlagQuotaStorage, nil))
	fs.IntVar(&quotas.Cursors, "quota-cursors", quotas.Cursors, g.t(msgFlagQuotaCursors, nil))
	fs.IntVar(&quotas.Connections, "quota-connections", quotas.Connections, g.t(msgFlagQuotaConnections, nil))
	heapMB := fs.Int64("quota-script-heap", quotas.ScriptHeap>>20, g.t(msgFlagQuotaHeap, nil))
	memoryMB := fs.Int("student-memory", int(limits.Memory>>20), g.t(msgFlagStudentMemory, nil))
	fs.DurationVar(&limits.CPU, "student-cpu", limits.CPU, g.t(msgFlagStudentCPU, nil))
	fs.IntVar(&limits.Files, "student-files", limits.Files, g.t(msgFlagStudentFiles, nil))
	fs.IntVar(&limits.Threads, "student-threads", limits.Threads, g.t(msgFlagStudentThreads, nil))
	fs.Usage = func() {
		fmt.Fprintln(stderr, g.t(msgClassroomUsage, nil))
		g.printFlags(stderr, fs)
	}
	if err := g.parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "schemalab classroom: "+format+"\n", a...)
		return code
	}
	if fs.NArg() > 0 {
		return fail(2, "%s", g.t(msgExtraArg, map[string]any{"Arg": fs.Arg(0)}))
	}
	if *maxStudents < 1 {
		return fail(2, "%s", g.t(msgMaxStudents, nil))
	}
	if *memoryMB < 64 || limits.CPU < time.Second || limits.Files < 32 || limits.Threads < 16 {
		return fail(2, "%s", g.t(msgStudentLimits, nil))
	}
	limits.Memory = int64(*memoryMB) << 20
	if *storageMB < 1 || quotas.Cursors < 1 || quotas.Connections < 4 || *heapMB < 16 {
		return fail(2, "%s", g.t(msgQuotas, nil))
	}
	quotas.Storage, quotas.ScriptHeap = *storageMB<<20, *heapMB<<20
	student, err := studentProcess(g)
	if err != nil {
		return fail(1, "%v", err)
	}
	if startups.Start, startups.Rate, startups.Full, err = classroom.ParseMaxStartups(*maxStartups); err != nil {
		return fail(2, "%v", err)
	}
	if startups.PerAddress < 1 || startups.Grace < time.Second {
		return fail(2, "%s", g.t(msgStartupsLimits, nil))
	}
	auth := classroom.Auth{AllowKeysFile: *allowKeys, Open: *open, InstructorKeysFile: *instructorKeys}
	if *passwordFile != "" {
		raw, err := safefile.Read(*passwordFile, 64<<10)
		if err != nil {
			return fail(2, "--password-file: %v", err)
		}
		auth.Password, _, _ = strings.Cut(strings.TrimRight(string(raw), "\r\n"), "\n")
		if auth.Password = strings.TrimSpace(auth.Password); auth.Password == "" {
			return fail(2, "%s", g.t(msgEmptyPassword, map[string]any{"File": *passwordFile}))
		}
	}
	if err := auth.Validate(); err != nil {
		return fail(2, "%s", g.L.Error(err))
	}
	if *instructor != "" && *instructorKeys == "" {
		return fail(2, "%s", g.t(msgInstructorKeys, map[string]any{"Name": *instructor}))
	}

	classroom.TuneCollector(os.Getenv)
	cat, errs := lessons.Load(content.FS, g.ContentDir)
	cat = cat.In(g.Lang.Lang)
	var warnings []string
	for _, err := range errs {
		warnings = append(warnings, err.Error())
	}
	// A lesson's shared copy is built when its first student opens it,
	// so that the room holds the data of the lessons in use; --prepare
	// builds some (or all) of them before anyone arrives.
	var ahead []*lessons.Lesson
	switch *prepare {
	case "":
	case "all":
		ahead = cat.Lessons
	default:
		var err error
		if ahead, err = cat.Select(strings.Split(*prepare, ",")); err != nil {
			return fail(2, "--prepare: %s", g.L.Error(err))
		}
	}
	// On the embedded server every student's process logs in as its own
	// login, which the server confines to the student's prefix and
	// quotas.
	sbCfg := g.sandboxConfig()
	sbCfg.Accounts = true
	be, err := sandbox.Open(ctx, sbCfg)
	if err != nil {
		return fail(1, "%v", err)
	}
	defer be.Close()
	var logins *classroom.Logins
	if be.Kind == sandbox.KindEmbedded {
		logins = studentLogins(be)
	}

	dashboard := lineedit.IsTerminal(os.Stdin) && lineedit.IsTerminal(os.Stdout)
	stateDir := filepath.Join(lessons.DefaultStateDir(os.Getenv), "classroom")
	logOut := classroom.LogWriter(stderr)
	if dashboard {
		// The dashboard owns the terminal; the connection log goes to a file.
		if err := os.MkdirAll(stateDir, 0o700); err != nil {
			return fail(1, "%v", err)
		}
		f, err := os.OpenFile(filepath.Join(stateDir, "classroom.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return fail(1, "%v", err)
		}
		defer f.Close()
		logOut = classroom.LogWriter(f)
		// wish reports a session's crash through charm's default logger,
		// which writes to stderr: under the dashboard, to the file too,
		// without colours, and without the control characters of what
		// it quotes.
		charmlog.SetOutput(classroom.LogWriter(f))
		charmlog.SetColorProfile(colorprofile.Ascii)
		defer charmlog.SetOutput(os.Stderr)
	}

	// On the embedded server each lesson runs once, as a template that
	// every student starts from; on another server there are no
	// snapshots to share, and each student's session runs the lessons'
	// code itself.
	var templates *room.Templates
	var seeds func(context.Context, *lessons.Lesson, string) (*lessons.Seeds, error)
	shared := g.t(msgLessonsShared, nil)
	var prepareLesson func(*lessons.Lesson)
	if be.Kind == sandbox.KindEmbedded {
		templates = room.NewTemplates(be.Client, be.Connector(), func(line string) { fmt.Fprintln(logOut, "schemalab classroom: "+line) })
		seeds, prepareLesson = templates.Seeds, templates.Start
	} else {
		shared = g.t(msgLessonsNotShared, nil)
	}

	// Students' processes reach the server the room uses: the embedded
	// one, or the real MongoDB of --uri (whose connection string goes to
	// them over their control channel, never on a command line).
	serverURI, label := be.URI(), ""
	if be.Kind != sandbox.KindEmbedded {
		label = be.Status()
		if serverURI == "" {
			serverURI = g.URI
		}
	}
	srv, err := classroom.New(classroom.Config{
		Listen:      *listen,
		BindAny:     *bindAny,
		StateDir:    stateDir,
		Auth:        auth,
		MaxStudents: *maxStudents,
		Instructor:  *instructor,
		Catalog:     cat,
		Warnings:    warnings,
		Sandbox: func(ctx context.Context, prefix string) (*lessons.Sandbox, error) {
			sb, err := be.ForPrefix(ctx, prefix)
			if err != nil {
				return nil, err
			}
			return g.lessonSandbox(sb), nil
		},
		Student:        student,
		ServerURI:      serverURI,
		Label:          label,
		Logins:         logins,
		Quotas:         quotas,
		Limits:         limits,
		Startups:       startups,
		Seeds:          seeds,
		Prepare:        prepareLesson,
		CheckPrefix:    sandbox.ValidatePrefix,
		Room:           room.New(room.Options{}),
		ScriptTimeout:  *timeout,
		ReservedPrefix: g.DBPrefix,
		NoColor:        g.NoColor,
		Lang:           g.Lang.Lang,
		Log:            logOut,
	})
	switch {
	case errors.Is(err, classroom.ErrNonLoopback):
		return fail(2, "%v", err)
	case errors.Is(err, syscall.EADDRINUSE):
		return fail(1, "%s", g.t(msgListenInUse, map[string]any{"Addr": *listen}))
	case err != nil:
		return fail(1, "%v", err)
	}
	defer srv.Close()

	if *open {
		fmt.Fprintf(stderr, "\n%s\n\n", g.t(msgOpenWarning, map[string]any{"Addr": srv.Addr()}))
	}
	fp, keyPath := srv.HostKey()
	fmt.Fprintf(stdout, "schemalab classroom: %s\n", g.t(msgListening, map[string]any{"Addr": srv.Addr(), "Backend": be.Status()}))
	fmt.Fprintln(stdout, g.t(msgLoginHint, map[string]any{"Hint": srv.LoginHint()}))
	fmt.Fprintln(stdout, g.t(msgHostKey, map[string]any{"Key": fp, "Path": keyPath}))
	fmt.Fprintln(stdout, shared)
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync() // a script waiting for the address must see it now
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	if templates != nil && len(ahead) > 0 {
		buildCtx, stopBuilding := context.WithCancel(ctx)
		built := make(chan struct{})
		go func() {
			defer close(built)
			templates.Prepare(buildCtx, ahead)
		}()
		defer func() {
			stopBuilding()
			<-built
		}()
	}
	if dashboard {
		err = srv.RunDashboard(ctx)
	} else {
		fmt.Fprintln(stderr, "schemalab classroom:", g.t(msgNoDashboard, nil))
		select {
		case <-ctx.Done():
		case err = <-served:
		}
	}
	if cerr := srv.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintln(stderr, "schemalab classroom:", g.t(msgClassroomStopped, nil))
	return 0
}

// studentLogins make each student's login on the embedded server.
func studentLogins(be *sandbox.Backend) *classroom.Logins {
	return &classroom.Logins{
		Add: func(name, password, prefix string, q classroom.Quotas) error {
			return be.AddUser(name, password, wire.Account{Prefix: prefix, MaxStorageBytes: q.Storage, MaxCursors: q.Cursors, MaxConnections: q.Connections})
		},
		Remove: be.RemoveUser,
		Usage: func(name string) classroom.Usage {
			u := be.Usage(name)
			return classroom.Usage{Storage: u.StorageBytes, Cursors: u.OpenCursors, Connections: u.Connections}
		},
	}
}

// studentProcess is the command that runs one student's session: this
// same program, with the lessons of --content, as `classroom-student`.
func studentProcess(g *globalOptions) (func() *exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find this program to run the students' sessions: %w", err)
	}
	var args []string
	if g.ContentDir != "" {
		args = append(args, "--content", g.ContentDir)
	}
	args = append(args, studentCommand)
	return func() *exec.Cmd { return exec.Command(self, args...) }, nil
}

var (
	msgFlagStudentMemory      = &locale.Message{ID: "cli.flag.studentMemory", Other: "memory one student's session may use, in MB (RLIMIT_DATA and resident memory); past it the session stops and the student can log in again"}
	msgFlagStudentCPU         = &locale.Message{ID: "cli.flag.studentCPU", Other: "processor time one student's session may use in all (RLIMIT_CPU); one block's time is --timeout"}
	msgFlagStudentFiles       = &locale.Message{ID: "cli.flag.studentFiles", Other: "open files one student's session may hold (RLIMIT_NOFILE)"}
	msgFlagStudentThreads     = &locale.Message{ID: "cli.flag.studentThreads", Other: "threads one student's session may run"}
	msgFlagQuotaStorage       = &locale.Message{ID: "cli.flag.quotaStorage", Other: "storage one student's databases may hold, in MB (data plus indexes, as db.stats() counts them); a write past it fails"}
	msgFlagQuotaCursors       = &locale.Message{ID: "cli.flag.quotaCursors", Other: "cursors one student may keep open"}
	msgFlagQuotaConnections   = &locale.Message{ID: "cli.flag.quotaConnections", Other: "connections one student's session may open to the server"}
	msgFlagQuotaHeap          = &locale.Message{ID: "cli.flag.quotaHeap", Other: "memory one student's scripts may take, in MB"}
	msgQuotas                 = &locale.Message{ID: "cli.classroom.quotas", Other: "--quota-storage must be at least 1 (MB), --quota-cursors at least 1, --quota-connections at least 4 and --quota-script-heap at least 16 (MB)"}
	msgStudentLimits          = &locale.Message{ID: "cli.classroom.studentLimits", Other: "--student-memory must be at least 64 (MB), --student-cpu at least 1s, --student-files at least 32 and --student-threads at least 16"}
	msgClassroomUsage         = &locale.Message{ID: "cli.classroom.usage", Other: "usage: schemalab classroom [--listen ADDR] [--bind-any] [--allow-keys FILE | --password-file FILE | --open] [FLAG…]"}
	msgFlagListen             = &locale.Message{ID: "cli.flag.listen", Other: "address to listen on (HOST:PORT)"}
	msgFlagBindAnyListen      = &locale.Message{ID: "cli.flag.bindAnyListen", Other: "allow a non-loopback --listen, reachable from other machines"}
	msgFlagAllowKeys          = &locale.Message{ID: "cli.flag.allowKeys", Other: "authorized_keys file with the students' public keys"}
	msgFlagPasswordFile       = &locale.Message{ID: "cli.flag.passwordFile", Other: "file whose first line is the class password"}
	msgFlagOpen               = &locale.Message{ID: "cli.flag.open", Other: "let anyone in, with no key or password"}
	msgFlagMaxStudents        = &locale.Message{ID: "cli.flag.maxStudents", Other: "most students at once"}
	msgFlagInstructor         = &locale.Message{ID: "cli.flag.instructor", Other: "login name that gets the dashboard over SSH (with --instructor-keys)"}
	msgFlagInstructorKeys     = &locale.Message{ID: "cli.flag.instructorKeys", Other: "authorized_keys file of the only keys that may log in as --instructor, in every mode"}
	msgFlagMaxStartups        = &locale.Message{ID: "cli.flag.maxStartups", Other: "connections not logged in yet, as sshd's MaxStartups start:rate:full: from start on, new ones are refused with rate% chance, rising to all at full"}
	msgFlagStartupsPerAddress = &locale.Message{ID: "cli.flag.startupsPerAddress", Other: "connections not logged in yet from one address at once"}
	msgFlagLoginGrace         = &locale.Message{ID: "cli.flag.loginGrace", Other: "time a connection has to log in (sshd's LoginGraceTime)"}
	msgStartupsLimits         = &locale.Message{ID: "cli.classroom.startupsLimits", Other: "--max-startups-per-address must be at least 1 and --login-grace-time at least 1s"}
	msgFlagTimeoutBlock       = &locale.Message{ID: "cli.flag.timeoutBlock", Other: "time limit for one block of a student's code"}
	msgFlagPrepare            = &locale.Message{ID: "cli.flag.prepare", Other: "lessons whose shared copy to build at start-up (comma-separated ids, or all); the others are built when their first student opens them"}
	msgMaxStudents            = &locale.Message{ID: "cli.classroom.maxStudents", Other: "--max-students must be at least 1"}
	msgEmptyPassword          = &locale.Message{ID: "cli.classroom.emptyPassword", Other: "--password-file {{.File}}: its first line, the class password, is empty"}
	msgInstructorKeys         = &locale.Message{ID: "cli.classroom.instructorKeys", Other: "--instructor {{.Name}} needs --instructor-keys FILE, an authorized_keys file of the keys that may log in as {{.Name}}: without it, whoever logged in first under that name would get the dashboard"}
	msgListenInUse            = &locale.Message{ID: "cli.classroom.inUse", Other: "{{.Addr}} is already in use; pick another --listen"}
	msgOpenWarning            = &locale.Message{ID: "cli.classroom.openWarning", Other: "WARNING: --open: ANYONE who can reach {{.Addr}} can log in, under any name, with no key or password."}
	msgLessonsShared          = &locale.Message{ID: "cli.classroom.lessonsShared", Other: "lessons: each lesson's setup runs once, and every student starts from a shared copy-on-write copy of its data"}
	msgLessonsNotShared       = &locale.Message{ID: "cli.classroom.lessonsNotShared", Other: "lessons: not shared: the classroom shares lessons on its embedded server only, since a real MongoDB cannot save database snapshots; here every student's session runs the lessons' setup code itself (slower, and more memory, with many students)"}
	msgListening              = &locale.Message{ID: "cli.classroom.listening", Other: "listening on {{.Addr}} ({{.Backend}})"}
	msgLoginHint              = &locale.Message{ID: "cli.classroom.loginHint", Other: "students log in with: {{.Hint}}"}
	msgHostKey                = &locale.Message{ID: "cli.classroom.hostKey", Other: "host key {{.Key}} ({{.Path}})"}
	msgNoDashboard            = &locale.Message{ID: "cli.classroom.noDashboard", Other: "no terminal here, so no dashboard; Ctrl+C or SIGTERM stops the classroom"}
	msgClassroomStopped       = &locale.Message{ID: "cli.classroom.stopped", Other: "stopped"}
)
