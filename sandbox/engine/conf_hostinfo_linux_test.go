//go:build linux

package engine_test

import (
	"os"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The distribution and kernel hostInfo reports are the host's own, read
// from Linux's /etc and /proc, so this test is built on Linux only.

// hostInfo names the Linux distribution and kernel as mongod's
// getLinuxDistro (processinfo_linux.cpp) finds them; jstest
// core/diagnostics/hostinfo.js requires both to be non-empty on Linux.
func TestConfHostInfoNamesTheLinuxSystem(t *testing.T) {
	db, _ := confColl(t)
	osDoc := field(okJ(t, db.Client().Database("admin"), `{"hostInfo":1}`), "os").(bson.D)
	name, _ := field(osDoc, "name").(string)
	version, _ := field(osDoc, "version").(string)
	if field(osDoc, "type") != "Linux" || name == "" || name == "linux" || version == "" {
		t.Fatalf("hostInfo os %v", osDoc)
	}
	if _, err := os.Stat("/etc/lsb-release"); err != nil {
		release, _ := os.ReadFile("/proc/sys/kernel/osrelease")
		if want := "Kernel " + strings.TrimSpace(string(release)); version != want {
			t.Errorf("os.version %q, want %q", version, want)
		}
	}
}
