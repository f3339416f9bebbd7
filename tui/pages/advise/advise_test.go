package advise

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons/advise"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// seeded is an embedded server with two databases: "shop", whose orders
// hold a planted long tail of items (1,000 orders of 1 to 20 items, 3 of
// 20,000) and whose sessions are uniform (the control), and "empty2",
// listed second. No secondary index, so that no finding carries the time
// its counters started and the goldens stay put.
func seeded(t *testing.T) advise.Source {
	t.Helper()
	be, err := sandbox.Open(context.Background(), sandbox.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = be.Close() })
	ctx := context.Background()
	client, err := be.NewClient(ctx, sandbox.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(ctx)
	items := func(n int) bson.A {
		a := make(bson.A, n)
		for i := range a {
			a[i] = bson.D{{Key: "sku", Value: int32(i)}}
		}
		return a
	}
	var orders, sessions []any
	for i := range 1000 {
		orders = append(orders, bson.D{{Key: "_id", Value: int32(i)}, {Key: "items", Value: items(i%20 + 1)}})
		sessions = append(sessions, bson.D{{Key: "_id", Value: int32(i)}, {Key: "pages", Value: items(5)}})
	}
	for i := range 3 {
		orders = append(orders, bson.D{{Key: "_id", Value: int32(1000 + i)}, {Key: "items", Value: items(20_000)}})
	}
	put := func(c *mongo.Collection, docs []any) {
		if _, err := c.InsertMany(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	put(client.Database("shop").Collection("orders"), orders)
	put(client.Database("shop").Collection("sessions"), sessions)
	put(client.Database("empty2").Collection("c"), []any{bson.D{{Key: "x", Value: 1}}})
	src := advise.FromBackend(be)
	src.Server = "embedded sandbox"
	return src
}

func newPage(t *testing.T, src advise.Source, lang string, w, h int) *Page {
	t.Helper()
	l := locale.For(lang)
	c := common.Common{Styles: styles.New(true, true), KeyMap: keymap.Default(l), L: l}
	p := New(context.Background(), c, src)
	p.SetSize(w, h)
	return p
}

// send runs msg through the page and every command that follows it, as
// the program would, until none is left; it returns the messages meant
// for the app (those of common).
func send(p *Page, msg tea.Msg) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		switch m.(type) {
		case common.OpenLessonMsg, common.BackMsg:
			out = append(out, m)
			continue
		}
		_, cmd := p.Update(m)
		queue = append(queue, run(cmd)...)
	}
	return out
}

// run runs cmd and the commands of the batches it returns.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, run(c)...)
		}
		return out
	default:
		return []tea.Msg{m}
	}
}

func press(k string) tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	return tea.KeyPressMsg{Code: rune(k[0]), Text: k}
}

var sizes = [][2]int{{80, 24}, {120, 40}}

// screen is the page's frame as text; it must fill its area exactly.
func screen(t *testing.T, p *Page) string {
	t.Helper()
	s := ansi.Strip(p.View())
	lines := strings.Split(s, "\n")
	if len(lines) != p.Height {
		t.Errorf("%d lines, want %d", len(lines), p.Height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > p.Width {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, w, p.Width, l)
		}
	}
	return s
}

// The database list, and the findings of the seeded database with the
// outlier's histogram, at 80×24 and 120×40, in English and in Russian.
func TestScreens(t *testing.T) {
	src := seeded(t)
	for _, lang := range []string{"en", "ru"} {
		for _, s := range sizes {
			t.Run(fmt.Sprintf("%s/%dx%d", lang, s[0], s[1]), func(t *testing.T) {
				p := newPage(t, src, lang, s[0], s[1])
				send(p, p.Init()())
				t.Run("databases", func(t *testing.T) { golden.RequireEqual(t, screen(t, p)) })
				// j stops at the last database, shop.
				send(p, press("j"))
				send(p, press("j"))
				send(p, press("enter"))
				if p.report == nil || p.runErr != nil {
					t.Fatalf("no report: %v", p.runErr)
				}
				t.Run("findings", func(t *testing.T) { golden.RequireEqual(t, screen(t, p)) })
				// j moves to the next finding and scrolls to it.
				send(p, press("j"))
				t.Run("next", func(t *testing.T) { golden.RequireEqual(t, screen(t, p)) })
			})
		}
	}
}

// The seeded database's findings name the outlier pattern on orders.items
// and nothing on the uniform sessions; o, and enter, on a finding ask the
// app to open the lesson it names.
func TestOpensTheNamedLesson(t *testing.T) {
	p := newPage(t, seeded(t), "en", 80, 24)
	send(p, p.Init()())
	if len(p.names) != 2 || p.names[0] != "empty2" || p.names[1] != "shop" {
		t.Fatalf("databases %v, want [empty2 shop]", p.names)
	}
	send(p, press("j"))
	send(p, press("enter"))
	var outlier = -1
	for i, f := range p.report.Findings {
		if f.Collection == "sessions" {
			t.Errorf("a finding on the uniform control: %+v", f)
		}
		if f.Pattern == advise.PatternOutlier && f.Collection == "orders" && f.Field == "items" {
			outlier = i
		}
	}
	if outlier < 0 {
		t.Fatalf("no outlier finding on orders.items: %+v", p.report.Findings)
	}
	for range outlier {
		send(p, press("j"))
	}
	for _, k := range []string{"o", "enter"} {
		out := send(p, press(k))
		want := common.OpenLessonMsg{ID: p.report.Findings[outlier].Lesson, Step: -1}
		if len(out) != 1 || out[0] != want || want.ID != "outlier" {
			t.Errorf("%s sends %v, want %v", k, out, want)
		}
	}
	// esc goes back to the list, and esc again back to the catalog.
	send(p, press("esc"))
	if p.stage != choosing {
		t.Errorf("esc on the report: stage %d, want the list", p.stage)
	}
	if out := send(p, press("esc")); len(out) != 1 || out[0] != (common.BackMsg{}) {
		t.Errorf("esc on the list sends %v, want BackMsg", out)
	}
}

// esc while the analysis runs cancels its context: the run ends with
// what it found, and the page says it stopped.
func TestEscStops(t *testing.T) {
	p := newPage(t, seeded(t), "en", 80, 24)
	send(p, p.Init()())
	send(p, press("j"))
	_, cmd := p.Update(press("enter"))
	if _, _, ok := p.Running(); !ok {
		t.Fatal("not running after enter")
	}
	if h := p.ShortHelp(); len(h) != 1 || h[0].Help().Desc != "stop" {
		t.Errorf("the help while running: %v, want esc stop", h)
	}
	// esc before the command runs: the analysis starts cancelled.
	send(p, press("esc"))
	for _, m := range run(cmd) {
		send(p, m)
	}
	if p.stage != reporting || !errors.Is(p.runErr, context.Canceled) {
		t.Fatalf("stage %d, error %v", p.stage, p.runErr)
	}
	if s := screen(t, p); !strings.Contains(s, "Stopped: these are the findings until then.") {
		t.Errorf("no stop note:\n%s", s)
	}
}

// u types a connection string; enter connects to it (here, to the
// seeded server) and lists that server's databases; a server that cannot
// be reached says why, and the list stays.
func TestTypedURI(t *testing.T) {
	src := seeded(t)
	for _, s := range sizes {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) {
			p := newPage(t, advise.Source{ReadOnly: func(context.Context) (*mongo.Client, error) {
				return nil, errors.New("the backend in use is not read")
			}, Server: "backend in use"}, "en", s[0], s[1])
			// The backend in use is still being listed when the URI is
			// typed: its late answer must not replace the other's list.
			stale := p.Init()
			closed := 0
			p.dial = func(_ context.Context, uri string) (advise.Source, func() error, error) {
				if uri != "mongodb://seeded:27017" {
					return advise.Source{}, nil, fmt.Errorf("no server at %s", uri)
				}
				return src, func() error { closed++; return nil }, nil
			}
			send(p, press("u"))
			if !p.WantsKeys() {
				t.Fatal("the URI input does not have the keys")
			}
			for _, r := range "mongodb://nowhere" {
				send(p, press(string(r)))
			}
			send(p, press("enter"))
			if p.stage != choosing || p.dialErr == nil || !strings.Contains(screen(t, p), "Could not connect: no server at mongodb://nowhere") {
				t.Fatalf("a failed connection:\n%s", screen(t, p))
			}
			send(p, press("u"))
			p.input.SetValue("")
			for _, r := range "mongodb://seeded:27017" {
				send(p, press(string(r)))
			}
			t.Run("typing", func(t *testing.T) { golden.RequireEqual(t, screen(t, p)) })
			send(p, press("enter"))
			if len(p.names) != 2 || p.src.Server != "embedded sandbox" {
				t.Fatalf("databases %v on %q, want the seeded server's", p.names, p.src.Server)
			}
			send(p, stale())
			if len(p.names) != 2 || p.listErr != nil {
				t.Fatalf("the late list of the backend left replaced the new one: %v, %v", p.names, p.listErr)
			}
			t.Run("databases", func(t *testing.T) { golden.RequireEqual(t, screen(t, p)) })
			p.Close()
			if closed != 1 {
				t.Errorf("the connection was closed %d times, want once", closed)
			}
		})
	}
}
