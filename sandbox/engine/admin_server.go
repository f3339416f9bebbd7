package engine

import (
	"bufio"
	"encoding/binary"
	"math"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/storageengine"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// fcvVersion is the featureCompatibilityVersion of a fresh 8.0 server.
const fcvVersion = "8.0"

func cmdPing(*Engine, *request) (bson.D, error) { return nil, nil }

// versionArray is buildInfo's ServerVersion as numbers, with mongod's
// fourth (pre-release) component.
func versionArray() bson.A {
	out := bson.A{}
	for _, part := range strings.Split(ServerVersion, ".") {
		n, _ := strconv.Atoi(part)
		out = append(out, int32(n))
	}
	return append(out, int32(0))
}

// buildInfo describes the build. javascriptEngine is "none" because
// server-side JavaScript ($where, $function, mapReduce) is not available,
// and openssl is "disabled" because the sandbox speaks plain TCP only.
func cmdBuildInfo(*Engine, *request) (bson.D, error) {
	return bson.D{
		{Key: "version", Value: ServerVersion},
		{Key: "gitVersion", Value: "schemalab-embedded"},
		{Key: "modules", Value: bson.A{}},
		{Key: "allocator", Value: "system"},
		{Key: "javascriptEngine", Value: "none"},
		{Key: "sysInfo", Value: "deprecated"},
		{Key: "versionArray", Value: versionArray()},
		{Key: "openssl", Value: bson.D{
			{Key: "running", Value: "disabled"},
			{Key: "compiled", Value: "disabled"},
		}},
		{Key: "buildEnvironment", Value: bson.D{
			{Key: "distarch", Value: cpuArch()},
			{Key: "target_arch", Value: cpuArch()},
			{Key: "target_os", Value: runtime.GOOS},
		}},
		{Key: "bits", Value: int32(64)},
		{Key: "debug", Value: false},
		{Key: "maxBsonObjectSize", Value: int32(value.MaxUserDocumentSize)},
		{Key: "storageEngines", Value: bson.A{storageengine.Name}},
	}, nil
}

// serverParameter is one getParameter entry.
type serverParameter struct {
	name              string
	value             any
	settableAtRuntime bool
	settableAtStartup bool
}

// serverParameters lists the parameters getParameter reports, sorted by
// name as mongod prints "*". The query knobs are the limits the sandbox
// enforces, with the type of their IDL storage (query_knobs.idl): a long
// long parameter is reported as a long. internalQueryFrameworkControl is
// forceClassicEngine because every plan the sandbox runs is a classic
// engine plan, as its explain says.
func serverParameters() []serverParameter {
	memoryLimitInt := int32(value.MemoryLimit)
	memoryLimitLong := int64(value.MemoryLimit)
	return []serverParameter{
		{name: "featureCompatibilityVersion", value: bson.D{{Key: "version", Value: fcvVersion}}},
		{name: "featureFlagBulkWriteCommand", value: enabledFeatureFlag("8.0"), settableAtStartup: true},
		{name: "featureFlagTTLIndexesOnCappedCollections", value: enabledFeatureFlag("7.1"), settableAtStartup: true},
		{name: "internalDocumentSourceGroupMaxMemoryBytes", value: memoryLimitLong, settableAtRuntime: true, settableAtStartup: true},
		{name: "internalLookupStageIntermediateDocumentMaxSizeBytes", value: memoryLimitLong, settableAtRuntime: true, settableAtStartup: true},
		{name: "internalPipelineLengthLimit", value: int32(aggregate.MaxPipelineLength), settableAtStartup: true},
		{name: "internalQueryFacetBufferSizeBytes", value: memoryLimitInt, settableAtRuntime: true, settableAtStartup: true},
		{name: "internalQueryFacetMaxOutputDocSizeBytes", value: memoryLimitLong, settableAtRuntime: true, settableAtStartup: true},
		{name: "internalQueryFindCommandBatchSize", value: int64(defaultFirstBatch), settableAtRuntime: true, settableAtStartup: true},
		{name: "internalQueryFrameworkControl", value: "forceClassicEngine", settableAtRuntime: true, settableAtStartup: true},
		{name: "internalQueryMaxAddToSetBytes", value: memoryLimitInt, settableAtRuntime: true, settableAtStartup: true},
		{name: "internalQueryMaxBlockingSortMemoryUsageBytes", value: memoryLimitInt, settableAtRuntime: true, settableAtStartup: true},
		{name: "internalQueryMaxPushBytes", value: memoryLimitInt, settableAtRuntime: true, settableAtStartup: true},
		{name: "logLevel", value: int32(0), settableAtRuntime: true, settableAtStartup: true},
		{name: "quiet", value: false, settableAtRuntime: true, settableAtStartup: true},
		// src/mongo/db/timeseries/timeseries.idl: startup-only int32s,
		// the limits the bucket catalog closes buckets at.
		{name: "timeseriesBucketMaxCount", value: int32(timeseries.BucketMaxCount), settableAtStartup: true},
		{name: "timeseriesBucketMaxSize", value: int32(timeseries.BucketMaxSize), settableAtStartup: true},
	}
}

// enabledFeatureFlag is how FeatureFlagServerParameter::append reports
// an FCV-gated feature flag that is on, version being the release that
// enabled it. The sandbox lists the 8.0 flags jstests gate behaviour it
// has on (FeatureFlagUtil.isEnabled), so those tests run rather than skip.
func enabledFeatureFlag(version string) bson.D {
	return bson.D{{Key: "value", Value: true}, {Key: "version", Value: version}, {Key: "shouldBeFCVGated", Value: true}}
}

// getParameter supports {getParameter: 1, name: 1, ...}, {getParameter:
// "*"} and {getParameter: {allParameters, showDetails}}.
func cmdGetParameter(_ *Engine, req *request) (bson.D, error) {
	all, details := false, false
	switch v := req.cmd[0].Value.(type) {
	case string:
		all = v == "*"
	case bson.D:
		for _, e := range v {
			switch e.Key {
			case "allParameters":
				all = expr.IsTrue(e.Value)
			case "showDetails":
				details = expr.IsTrue(e.Value)
			default:
				return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field 'getParameter.%s' is an unknown field.", e.Key)
			}
		}
	}
	var reply bson.D
	for _, p := range serverParameters() {
		if !all {
			if _, asked := newArgs(req).get(p.name); !asked {
				continue
			}
		}
		v := p.value
		if details {
			v = bson.D{
				{Key: "value", Value: p.value},
				{Key: "settableAtRuntime", Value: p.settableAtRuntime},
				{Key: "settableAtStartup", Value: p.settableAtStartup},
			}
		}
		reply = append(reply, bson.E{Key: p.name, Value: v})
	}
	if len(reply) == 0 {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "no option found to get")
	}
	return reply, nil
}

// setParameter follows CmdSet::errmsgRun (set_parameter.cpp): every named
// parameter is checked before any is set, and the reply's "was" is the
// first one's value. The sandbox's parameters are fixed, so setting one to
// the value it has succeeds (tests pin forceClassicEngine this way) and any
// other value is refused rather than accepted and ignored.
func cmdSetParameter(_ *Engine, req *request) (bson.D, error) {
	known := map[string]serverParameter{}
	for _, p := range serverParameters() {
		known[p.name] = p
	}
	var named []bson.E
	for _, e := range req.cmd[1:] {
		if genericArguments[e.Key] {
			continue
		}
		p, ok := known[e.Key]
		if !ok {
			return nil, mongoerr.Newf(mongoerr.InvalidOptions, "attempted to set unrecognized parameter [%s], use help:true to see options ", e.Key)
		}
		if !p.settableAtRuntime {
			return nil, mongoerr.Newf(mongoerr.IllegalOperation, "not allowed to change [%s] at runtime", e.Key)
		}
		named = append(named, e)
	}
	if len(named) == 0 {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "no option found to set, use help:true to see options ")
	}
	for _, e := range named {
		if current := known[e.Key].value; !sameParameterValue(current, e.Value) {
			return nil, mongoerr.Newf(mongoerr.NotImplemented,
				"the schemalab sandbox cannot change %s: it is fixed at %s; use a real MongoDB (--uri) to change it", e.Key, value.Format(current))
		}
	}
	return bson.D{{Key: "was", Value: known[named[0].Key].value}}, nil
}

// sameParameterValue reports whether asked names the value a parameter
// has: a number of any type equal to a numeric one, the same string, or,
// for a bool, a bool or number of the same truth, as BSONElement::coerce
// reads them.
func sameParameterValue(current, asked any) bool {
	switch c := current.(type) {
	case string:
		s, ok := asked.(string)
		return ok && s == c
	case bool:
		if _, ok := asked.(bool); ok || value.IsNumber(asked) {
			return expr.IsTrue(asked) == c
		}
		return false
	}
	return value.IsNumber(asked) && value.IsNumber(current) && value.Compare(current, asked) == 0
}

// fsync is FSyncCommand (fsync.cpp): without lock it flushes the storage
// engine's files, which the in-memory sandbox has none of, and answers the
// numFiles mongod keeps as a dummy. With lock it must put the storage
// engine in backup mode, and the sandbox's, like every engine without
// one, refuses as StorageEngine::beginBackup's default does; the lock
// count goes back to 0, so no write is ever blocked.
func cmdFsync(_ *Engine, req *request) (bson.D, error) {
	if !expr.IsTrue(value.Get(req.cmd, "lock")) {
		return bson.D{{Key: "numFiles", Value: int32(1)}}, nil
	}
	return nil, mongoerr.New(mongoerr.CommandNotSupported, "The current storage engine doesn't support backup mode")
}

// fsyncUnlock is FSyncUnlockCommand: the server is never fsync-locked.
func cmdFsyncUnlock(*Engine, *request) (bson.D, error) {
	return nil, codelessError("fsyncUnlock called when not locked")
}

func cmdGetCmdLineOpts(_ *Engine, req *request) (bson.D, error) {
	argv, parsed := commandLine(req.conn.ListenAddr)
	return bson.D{{Key: "argv", Value: argv}, {Key: "parsed", Value: parsed}}, nil
}

// commandLine is the command line of a mongod listening on listenAddr,
// as getCmdLineOpts reports it: the options a server reached in process,
// with no listener, was given are none.
func commandLine(listenAddr string) (argv bson.A, parsed bson.D) {
	host, port, err := net.SplitHostPort(listenAddr)
	if err != nil {
		return bson.A{"mongod"}, bson.D{}
	}
	portNum, _ := strconv.Atoi(port)
	return bson.A{"mongod", "--bind_ip", host, "--port", port}, bson.D{{Key: "net", Value: bson.D{
		{Key: "bindIp", Value: host},
		{Key: "port", Value: int32(portNum)},
	}}}
}

// getLog serves the two RAM logs a mongod has (GetLogCmd, generic.cpp).
// "global" holds the lines the sandbox writes (connections, client
// metadata, validation warnings); the sandbox writes no startup warnings,
// which is what keeps mongosh's startup banner empty.
func cmdGetLog(e *Engine, req *request) (bson.D, error) {
	v := req.cmd[0].Value
	name, ok := v.(string)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Argument to getLog must be of type String; found %s of type %s", value.Format(v), value.TypeName(v))
	}
	switch name {
	case "*":
		return bson.D{{Key: "names", Value: bson.A{"global", "startupWarnings"}}}, nil
	case "global":
		total, lines := e.log.global(req.conn.user)
		return bson.D{
			bson.E{Key: "totalLinesWritten", Value: appendNumber(total)},
			bson.E{Key: "log", Value: lines},
		}, nil
	case "startupWarnings":
		return bson.D{
			bson.E{Key: "totalLinesWritten", Value: int32(0)},
			bson.E{Key: "log", Value: bson.A{}},
		}, nil
	}
	return nil, codelessError("no RamLog named: " + name)
}

func cmdHostInfo(*Engine, *request) (bson.D, error) {
	hostname, _ := os.Hostname()
	memMB := totalMemoryMB()
	return bson.D{
		{Key: "system", Value: bson.D{
			{Key: "currentTime", Value: bson.NewDateTimeFromTime(time.Now())},
			{Key: "hostname", Value: hostname},
			{Key: "cpuAddrSize", Value: int32(64)},
			{Key: "memSizeMB", Value: memMB},
			{Key: "memLimitMB", Value: memMB},
			{Key: "numCores", Value: int32(runtime.NumCPU())},
			{Key: "numCoresAvailableToProcess", Value: int32(runtime.GOMAXPROCS(0))},
			{Key: "numPhysicalCores", Value: int32(runtime.NumCPU())},
			{Key: "numCpuSockets", Value: int32(1)},
			{Key: "cpuArch", Value: cpuArch()},
			{Key: "numaEnabled", Value: false},
			{Key: "numNumaNodes", Value: int32(1)},
		}},
		{Key: "os", Value: osNameAndVersion()},
		{Key: "extra", Value: bson.D{}},
	}, nil
}

// cmdFeatures answers as FeaturesCmd (generic_servers.cpp, reply
// featuresReply in generic_servers.idl): the scripting engine's utf8 flag
// and oidMachine, the first four bytes of the per-process nonce every
// ObjectId the server generates carries, read as mongod's memcpy into an
// unsigned does on a little-endian machine. The sandbox's ObjectIds come
// from the driver's generator, whose nonce is fixed for the process, so
// oidReset, which has mongod draw a new one, is refused rather than
// answered with a nonce no later ObjectId would carry.
func cmdFeatures(e *Engine, req *request) (bson.D, error) {
	// Like hostInfo, declared beside it in generic_servers.idl, it takes
	// unknown fields without complaint.
	reset, err := newArgs(req).boolean("oidReset", false)
	if err != nil {
		return nil, err
	}
	if reset {
		return nil, mongoerr.New(mongoerr.NotImplemented, "features with oidReset is not supported by the schemalab sandbox: its ObjectIds keep one per-process nonce; run this step against a real MongoDB with --uri")
	}
	return bson.D{
		{Key: "js", Value: bson.D{{Key: "utf8", Value: true}}},
		{Key: "oidMachine", Value: int64(binary.LittleEndian.Uint32(e.processID[4:8]))},
	}, nil
}

func cpuArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	}
	return runtime.GOARCH
}

func osType() string {
	switch runtime.GOOS {
	case "linux":
		return "Linux"
	case "darwin":
		return "Darwin"
	case "windows":
		return "Windows"
	}
	return runtime.GOOS
}

// osNameAndVersion is hostInfo's os document. On Linux the name and
// version are found as processinfo_linux.cpp's getLinuxDistro finds them:
// DISTRIB_ID and DISTRIB_RELEASE from /etc/lsb-release when it has both,
// else the first line of the first release file that exists (name
// "unknown" when none does) and "Kernel " with the kernel's release.
func osNameAndVersion() bson.D {
	name, version := runtime.GOOS, ""
	if runtime.GOOS == "linux" {
		name, version = linuxDistro()
	}
	return bson.D{{Key: "type", Value: osType()}, {Key: "name", Value: name}, {Key: "version", Value: version}}
}

// linuxReleaseFiles are the files getLinuxDistro reads a distribution's
// name from, in its order.
var linuxReleaseFiles = []string{"/etc/system-release", "/etc/redhat-release", "/etc/gentoo-release",
	"/etc/novell-release", "/etc/SuSE-release", "/etc/SUSE-release", "/etc/sles-release",
	"/etc/debian_release", "/etc/slackware-version", "/etc/centos-release", "/etc/os-release"}

func linuxDistro() (name, version string) {
	if b, err := os.ReadFile("/etc/lsb-release"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			key, val, _ := strings.Cut(line, "=")
			switch key {
			case "DISTRIB_ID":
				name = val
			case "DISTRIB_RELEASE":
				version = val
			}
		}
		if name != "" && version != "" {
			return name, version
		}
	}
	name = "unknown"
	for _, path := range linuxReleaseFiles {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		first, _, _ := strings.Cut(string(b[:min(len(b), 512)]), "\n")
		name = first
		break
	}
	release, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	line, _, _ := strings.Cut(string(release), "\n")
	return name, "Kernel " + line
}

// totalMemoryMB reads the machine's memory from /proc/meminfo where there
// is one; elsewhere it reports 0 rather than a made-up figure.
func totalMemoryMB() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			return kb / 1024
		}
	}
	return 0
}

// connectionStatus: authentication is off, so nobody is authenticated.
// The arguments parse as its IDL command (connection_status.idl: strict,
// showPrivileges a safeBool).
func cmdConnectionStatus(_ *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "showPrivileges"); err != nil {
		return nil, err
	}
	showPrivileges, err := a.boolean("showPrivileges", false)
	if err != nil {
		return nil, err
	}
	users := bson.A{}
	if req.conn.user != "" {
		users = append(users, bson.D{{Key: "user", Value: req.conn.user}, {Key: "db", Value: "admin"}})
	}
	auth := bson.D{
		{Key: "authenticatedUsers", Value: users},
		{Key: "authenticatedUserRoles", Value: bson.A{}},
	}
	if showPrivileges {
		auth = append(auth, bson.E{Key: "authenticatedUserPrivileges", Value: bson.A{}})
	}
	return bson.D{{Key: "authInfo", Value: auth}}, nil
}

func cmdWhatsMyURI(_ *Engine, req *request) (bson.D, error) {
	return bson.D{{Key: "you", Value: req.conn.RemoteAddr}}, nil
}

// endSessions: the sandbox keeps no server-side session state to end, but
// the command parses as its IDL command does (sessions_commands.idl:
// strict, the sessions an array).
func cmdEndSessions(_ *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if _, ok := req.cmd[0].Value.(bson.A); !ok {
		return nil, a.wrongType(req.cmd[0].Key, req.cmd[0].Value, "type 'array'")
	}
	return nil, a.checkKnown(true)
}

// cmdServerStatus answers the sections the sandbox keeps real figures
// for, in mongod's order (its sections sort by name after the process
// fields). As in ServerStatusCommand::run, a section given a false value
// is left out; metrics may also be a document leaving out its subtrees.
func cmdServerStatus(e *Engine, req *request) (bson.D, error) {
	hostname, _ := os.Hostname()
	up := time.Since(e.started)
	current := int32(e.conns.current.Load())
	reply := bson.D{
		{Key: "host", Value: hostname},
		{Key: "version", Value: ServerVersion},
		{Key: "process", Value: "mongod"},
		{Key: "pid", Value: int64(os.Getpid())},
		{Key: "uptime", Value: math.Floor(up.Seconds())},
		{Key: "uptimeMillis", Value: up.Milliseconds()},
		{Key: "uptimeEstimate", Value: int64(up.Seconds())},
		{Key: "localTime", Value: bson.NewDateTimeFromTime(time.Now())},
	}
	a := newArgs(req)
	wanted := func(section string) (any, bool) {
		v, given := a.get(section)
		return v, !given || expr.IsTrue(v)
	}
	if _, ok := wanted("connections"); ok {
		reply = append(reply, bson.E{Key: "connections", Value: bson.D{
			{Key: "current", Value: current},
			{Key: "available", Value: int32(838860) - current},
			{Key: "totalCreated", Value: int32(e.conns.created.Load())},
			{Key: "rejected", Value: int32(0)},
			{Key: "active", Value: current},
		}})
	}
	if spec, ok := wanted("metrics"); ok {
		reply = append(reply, bson.E{Key: "metrics", Value: e.metrics.metricsSection(spec, e.cursors)})
	}
	if _, ok := wanted("opcounters"); ok {
		reply = append(reply, bson.E{Key: "opcounters", Value: e.metrics.opcounters()})
	}
	if _, ok := wanted("storageEngine"); ok {
		reply = append(reply, bson.E{Key: "storageEngine", Value: storageengine.Status()})
	}
	return reply, nil
}

// cmdGetDiagnosticData is getDiagnosticData (src/mongo/db/ftdc/ftdc_commands.cpp):
// the latest sample of full-time diagnostic data capture, framed as
// FTDCCollectorCollection::collect frames it, with start and end dates
// around the sample and around each collector's section. mongod samples
// every second; the sandbox samples when asked, and its one collector is
// serverStatus.
func cmdGetDiagnosticData(e *Engine, req *request) (bson.D, error) {
	start := bson.NewDateTimeFromTime(time.Now())
	status, err := cmdServerStatus(e, &request{ctx: req.ctx, conn: req.conn, db: "admin", name: "serverStatus",
		cmd: bson.D{{Key: "serverStatus", Value: int32(1)}}, now: req.now})
	if err != nil {
		return nil, err
	}
	end := bson.NewDateTimeFromTime(time.Now())
	section := make(bson.D, 0, len(status)+2)
	section = append(section, bson.E{Key: "start", Value: start})
	section = append(section, status...)
	section = append(section, bson.E{Key: "end", Value: end})
	return bson.D{{Key: "data", Value: bson.D{
		{Key: "start", Value: start},
		{Key: "serverStatus", Value: section},
		{Key: "end", Value: end},
	}}}, nil
}
