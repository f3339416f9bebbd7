package wire

import (
	"bufio"
	"math"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The MongoDB release whose behaviour the embedded server reproduces.
const (
	serverVersion = "8.0.4"
	fcvVersion    = "8.0"
)

var versionArray = bson.A{int32(8), int32(0), int32(4), int32(0)}

func typeName(v any) string { return value.TypeName(v) }

func (s *Server) ping(*call) (bson.D, error) { return okReply(), nil }

// buildInfo describes the build. javascriptEngine is "none" because
// server-side JavaScript ($where, $function, mapReduce) is not available,
// and openssl is "disabled" because the sandbox speaks plain TCP only.
func (s *Server) buildInfo(*call) (bson.D, error) {
	return okReply(
		bson.E{Key: "version", Value: serverVersion},
		bson.E{Key: "gitVersion", Value: "schemalab-embedded"},
		bson.E{Key: "modules", Value: bson.A{}},
		bson.E{Key: "allocator", Value: "system"},
		bson.E{Key: "javascriptEngine", Value: "none"},
		bson.E{Key: "sysInfo", Value: "deprecated"},
		bson.E{Key: "versionArray", Value: versionArray},
		bson.E{Key: "openssl", Value: bson.D{
			{Key: "running", Value: "disabled"},
			{Key: "compiled", Value: "disabled"},
		}},
		bson.E{Key: "buildEnvironment", Value: bson.D{
			{Key: "distarch", Value: cpuArch()},
			{Key: "target_arch", Value: cpuArch()},
			{Key: "target_os", Value: runtime.GOOS},
		}},
		bson.E{Key: "bits", Value: int32(64)},
		bson.E{Key: "debug", Value: false},
		bson.E{Key: "maxBsonObjectSize", Value: int32(value.MaxUserDocumentSize)},
		bson.E{Key: "storageEngines", Value: bson.A{"inMemory"}},
	), nil
}

// serverParameter is one getParameter entry.
type serverParameter struct {
	name              string
	value             any
	settableAtRuntime bool
	settableAtStartup bool
}

// serverParameters lists the parameters getParameter reports, sorted by
// name as mongod prints "*".
func serverParameters() []serverParameter {
	return []serverParameter{
		{name: "featureCompatibilityVersion", value: bson.D{{Key: "version", Value: fcvVersion}}},
		{name: "logLevel", value: int32(0), settableAtRuntime: true, settableAtStartup: true},
		{name: "quiet", value: false, settableAtRuntime: true, settableAtStartup: true},
	}
}

// getParameter supports {getParameter: 1, name: 1, ...}, {getParameter:
// "*"} and {getParameter: {allParameters, showDetails}}.
func (s *Server) getParameter(c *call) (bson.D, error) {
	all, details := false, false
	switch v := c.cmd[0].Value.(type) {
	case string:
		all = v == "*"
	case bson.D:
		for _, e := range v {
			switch e.Key {
			case "allParameters":
				all = truthy(e.Value)
			case "showDetails":
				details = truthy(e.Value)
			default:
				return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field 'getParameter.%s' is an unknown field.", e.Key)
			}
		}
	}
	var reply bson.D
	for _, p := range serverParameters() {
		if !all {
			if _, asked := c.arg(p.name); !asked {
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
	return okReply(reply...), nil
}

func (s *Server) getCmdLineOpts(*call) (bson.D, error) {
	host, port, _ := net.SplitHostPort(s.ln.Addr().String())
	portNum, _ := strconv.Atoi(port)
	return okReply(
		bson.E{Key: "argv", Value: bson.A{"mongod", "--bind_ip", host, "--port", port}},
		bson.E{Key: "parsed", Value: bson.D{{Key: "net", Value: bson.D{
			{Key: "bindIp", Value: host},
			{Key: "port", Value: int32(portNum)},
		}}}},
	), nil
}

// getLog serves the two RAM logs a mongod has; the sandbox writes no
// warnings to them, which is what keeps mongosh's startup banner empty.
func (s *Server) getLog(c *call) (bson.D, error) {
	v := c.cmd[0].Value
	name, ok := v.(string)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Argument to getLog must be of type String; found %s of type %s", shortValue(v), typeName(v))
	}
	switch name {
	case "*":
		return okReply(bson.E{Key: "names", Value: bson.A{"global", "startupWarnings"}}), nil
	case "global", "startupWarnings":
		return okReply(
			bson.E{Key: "totalLinesWritten", Value: int32(0)},
			bson.E{Key: "log", Value: bson.A{}},
		), nil
	}
	// getLog reports this failure with errmsg only, without a code.
	return bson.D{{Key: "errmsg", Value: "no RamLog named: " + name}, {Key: "ok", Value: 0.0}}, nil
}

func shortValue(v any) string {
	switch x := v.(type) {
	case int32:
		return strconv.Itoa(int(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	return typeName(v)
}

func (s *Server) hostInfo(*call) (bson.D, error) {
	hostname, _ := os.Hostname()
	memMB := totalMemoryMB()
	return okReply(
		bson.E{Key: "system", Value: bson.D{
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
		bson.E{Key: "os", Value: bson.D{
			{Key: "type", Value: osType()},
			{Key: "name", Value: runtime.GOOS},
			{Key: "version", Value: ""},
		}},
		bson.E{Key: "extra", Value: bson.D{}},
	), nil
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
func (s *Server) connectionStatus(c *call) (bson.D, error) {
	auth := bson.D{
		{Key: "authenticatedUsers", Value: bson.A{}},
		{Key: "authenticatedUserRoles", Value: bson.A{}},
	}
	if v, ok := c.arg("showPrivileges"); ok && truthy(v) {
		auth = append(auth, bson.E{Key: "authenticatedUserPrivileges", Value: bson.A{}})
	}
	return okReply(bson.E{Key: "authInfo", Value: auth}), nil
}

func (s *Server) whatsmyuri(c *call) (bson.D, error) {
	return okReply(bson.E{Key: "you", Value: c.conn.remote}), nil
}

// endSessions: the sandbox keeps no server-side session state.
func (s *Server) endSessions(*call) (bson.D, error) { return okReply(), nil }

func (s *Server) serverStatus(*call) (bson.D, error) {
	hostname, _ := os.Hostname()
	up := time.Since(s.started)
	current := int32(s.connectionCount())
	return okReply(
		bson.E{Key: "host", Value: hostname},
		bson.E{Key: "version", Value: serverVersion},
		bson.E{Key: "process", Value: "mongod"},
		bson.E{Key: "pid", Value: pid()},
		bson.E{Key: "uptime", Value: math.Floor(up.Seconds())},
		bson.E{Key: "uptimeMillis", Value: up.Milliseconds()},
		bson.E{Key: "uptimeEstimate", Value: int64(up.Seconds())},
		bson.E{Key: "localTime", Value: bson.NewDateTimeFromTime(time.Now())},
		bson.E{Key: "connections", Value: bson.D{
			{Key: "current", Value: current},
			{Key: "available", Value: int32(838860) - current},
			{Key: "totalCreated", Value: int32(s.lastConnID.Load())},
			{Key: "rejected", Value: int32(0)},
			{Key: "active", Value: current},
		}},
	), nil
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int32:
		return x != 0
	case int64:
		return x != 0
	case float64:
		return x != 0
	case nil:
		return false
	}
	return !value.IsMissing(v)
}
