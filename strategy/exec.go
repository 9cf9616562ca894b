package strategy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/unosim/unosim/engine"
)

// ProtocolVersion is the version of the line protocol of external bots
// (docs/PROTOCOL.md).
const ProtocolVersion = 1

// BotTimeout is how long an external bot may take to answer; the
// environment variable UNOSIM_BOT_TIMEOUT (a Go duration such as 30s)
// overrides it.
const BotTimeout = 10 * time.Second

func botTimeout() (time.Duration, error) {
	s := os.Getenv("UNOSIM_BOT_TIMEOUT")
	if s == "" {
		return BotTimeout, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	return 0, fmt.Errorf("UNOSIM_BOT_TIMEOUT=%s is not a positive duration such as 30s or 2m", s)
}

// Pool holds the external bots of one worker: one process per command,
// started at its first decision and serving every seat and game of that
// worker in turn. A Pool is not safe for concurrent use.
type Pool struct {
	bots map[string]*bot
}

// NewPool makes an empty pool.
func NewPool() *Pool { return &Pool{bots: map[string]*bot{}} }

func (p *Pool) bot(command string) *bot {
	b := p.bots[command]
	if b == nil {
		b = &bot{command: command}
		p.bots[command] = b
	}
	return b
}

// Err is the first failure of a bot of the pool, or nil.
func (p *Pool) Err() error {
	for _, b := range p.bots {
		if b.err != nil {
			return b.err
		}
	}
	return nil
}

// Close ends every bot's process.
func (p *Pool) Close() error {
	var errs []error
	for _, b := range p.bots {
		errs = append(errs, b.close())
	}
	return errors.Join(errs...)
}

// NewIn makes an instance whose external bot, if any, is the pool's: the
// instances of one worker share one process per command.
func (s Spec) NewIn(p *Pool) engine.Strategy {
	if s.name == "exec" {
		return &Exec{bot: p.bot(s.params)}
	}
	return s.New()
}

// parseExec reads exec:COMMAND, a bot in another language.
func parseExec(command string) (Spec, error) {
	command = strings.Join(strings.Fields(command), " ")
	if command == "" {
		return Spec{}, fmt.Errorf("strategy exec: give the command line after exec:, e.g. exec:python3 examples/randombot.py")
	}
	return Spec{name: "exec", params: command, make: func(Args) engine.Strategy {
		return &Exec{bot: &bot{command: command}}
	}}, nil
}

// bot is one external process speaking the line protocol.
type bot struct {
	command string
	cmd     *exec.Cmd
	in      *bufio.Writer
	stdin   io.WriteCloser
	lines   chan []byte
	readErr error         // why the reading of stdout stopped; set before lines is closed
	exited  chan struct{} // closed when the process has exited (exitErr is then set)
	exitErr error
	stderr  *tail
	observe bool
	started bool
	err     error
	timeout time.Duration
}

// tail keeps the last bytes a bot wrote to stderr, for messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2048 {
		t.buf = t.buf[len(t.buf)-2048:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// fail records the bot's first failure, naming the bot, the game and the
// decision, and stops the process.
func (b *bot) fail(seat int, game uint64, what string, format string, args ...any) {
	if b.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if s := b.stderr.String(); s != "" {
		msg += "; its stderr ends: " + s
	}
	b.err = fmt.Errorf("exec bot %q (seat %d): game %d, %s: %s", b.command, seat, game, what, msg)
	b.close()
}

func (b *bot) start() error {
	b.started = true
	b.stderr = &tail{}
	var err error
	if b.timeout, err = botTimeout(); err != nil {
		return err
	}
	args := strings.Fields(b.command)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = b.stderr
	cmd.WaitDelay = time.Second // a child of the bot holding its stderr open
	detach(cmd)
	if b.stdin, err = cmd.StdinPipe(); err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	b.cmd = cmd
	b.in = bufio.NewWriter(b.stdin)
	b.lines = make(chan []byte, 1)
	b.exited = make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), maxLine)
		for sc.Scan() {
			b.lines <- bytes.Clone(sc.Bytes())
		}
		b.readErr = sc.Err()
		close(b.lines)
		// Wait only once every read of stdout is done; a bot that closed
		// its stdout but runs on is waited for here until close kills it.
		b.exitErr = cmd.Wait()
		close(b.exited)
	}()
	return nil
}

// maxLine is the longest line a bot may print, its newline excluded.
const maxLine = 1 << 20

func (b *bot) send(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	b.in.Write(data)
	b.in.WriteByte('\n')
	return b.in.Flush()
}

// receive reads the bot's next line within the timeout.
func (b *bot) receive() ([]byte, error) {
	select {
	case line, ok := <-b.lines:
		if !ok {
			if errors.Is(b.readErr, bufio.ErrTooLong) {
				return nil, fmt.Errorf("it printed a line longer than %d bytes (1 MB), the most a line may hold", maxLine)
			}
			select {
			case <-b.exited:
			case <-time.After(b.timeout):
				return nil, fmt.Errorf("it closed its standard output and had not exited %s later", b.timeout)
			}
			return nil, b.exitedErr()
		}
		return line, nil
	case <-time.After(b.timeout):
		return nil, fmt.Errorf("no answer within %s (set UNOSIM_BOT_TIMEOUT to wait longer)", b.timeout)
	}
}

// exitedErr says the bot exited, with its status; b.exited is closed.
func (b *bot) exitedErr() error {
	if b.exitErr != nil {
		return fmt.Errorf("it exited (%v)", b.exitErr)
	}
	return errors.New("it exited")
}

// sendFailed records a failed write. A broken pipe, or one closed (Wait
// closes it once the bot has exited), is most often a bot that exited:
// wait a moment for its end and say so, with its status, as receive does;
// whether the write or the read notices first is chance.
func (b *bot) sendFailed(seat int, game uint64, what string, err error) {
	if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		select {
		case <-b.exited:
			b.fail(seat, game, what, "%v", b.exitedErr())
		case <-time.After(time.Second): // it closed its input but runs on
			b.fail(seat, game, what, "it closed its standard input")
		}
		return
	}
	b.fail(seat, game, what, "cannot write to it: %v", err)
}

// ready starts the bot and shakes hands, once.
func (b *bot) ready(seat int, game uint64) bool {
	if b.err != nil {
		return false
	}
	if b.started {
		return true
	}
	if err := b.start(); err != nil {
		b.fail(seat, game, "start", "cannot run it: %v", err)
		return false
	}
	if err := b.send(map[string]any{"type": "hello", "protocol": ProtocolVersion}); err != nil {
		b.sendFailed(seat, game, "handshake", err)
		return false
	}
	line, err := b.receive()
	if err != nil {
		b.fail(seat, game, "handshake", "%v", err)
		return false
	}
	var hello struct {
		Type     string `json:"type"`
		Protocol int    `json:"protocol"`
		Observe  bool   `json:"observe"`
	}
	if err := json.Unmarshal(line, &hello); err != nil || hello.Type != "hello" {
		b.fail(seat, game, "handshake", "it answered %q, want {\"type\":\"hello\",\"protocol\":%d}", clip(line), ProtocolVersion)
		return false
	}
	if hello.Protocol != ProtocolVersion {
		b.fail(seat, game, "handshake", "it speaks protocol %d, this unosim speaks %d", hello.Protocol, ProtocolVersion)
		return false
	}
	b.observe = hello.Observe
	return true
}

func (b *bot) close() error {
	if b.cmd == nil {
		return nil
	}
	b.stdin.Close()
	cmd := b.cmd
	b.cmd = nil
	select {
	case <-b.exited:
		return b.exitErr
	case <-time.After(2 * time.Second):
		cmd.Process.Kill()
		<-b.exited
		return nil
	}
}

func clip(line []byte) string {
	if len(line) > 200 {
		return string(line[:200]) + "..."
	}
	return string(line)
}

// Exec is a strategy played by an external program (exec:COMMAND) that
// speaks the line protocol of docs/PROTOCOL.md on its standard input and
// output. A bot that fails (it exits, hangs past the timeout, prints what
// is not the protocol or answers a move that does not exist) stops the
// run: Err reports it, naming the bot, the game and the decision.
type Exec struct {
	bot   *bot
	game  uint64
	begun bool // the bot was told that game begins
}

// Err is the bot's failure, if any.
func (x *Exec) Err() error { return x.bot.err }

// Begin implements engine.Observer: a game begins, with a seed for the bot
// drawn from the seat's own stream, so the bot's games are reproducible
// and it never learns the run's seed.
func (x *Exec) Begin(v *engine.View) {
	x.game, x.begun = v.Game(), true
	if !x.bot.ready(v.Seat(), x.game) {
		return
	}
	o := v.Options()
	opts := map[string]string{}
	for _, kv := range o.Values() {
		opts[kv[0]] = kv[1]
	}
	msg := map[string]any{"type": "begin", "game": x.game, "seat": v.Seat(), "seed": v.Rand().Uint64(),
		"players": v.Players(), "rules": o.Rules.String(), "options": opts}
	if err := x.bot.send(msg); err != nil {
		x.bot.sendFailed(v.Seat(), x.game, "begin", err)
	}
}

// Observe implements engine.Observer: the events the seat sees go to a bot
// that asked for them in its handshake.
func (x *Exec) Observe(v *engine.View, e engine.Event) {
	if x.bot.err != nil || !x.bot.observe {
		return
	}
	ev := map[string]any{"kind": eventKindName(e.Kind), "player": e.Player, "other": e.Other, "n": e.N, "n2": e.N2, "text": e.String()}
	// An event's unused Card and Color are zero, which is red-0 and red:
	// only the kinds that have a card or a color carry one.
	switch e.Kind {
	case engine.EvStartCard, engine.EvPlay, engine.EvDrawCard, engine.EvStack, engine.EvDeflect, engine.EvJumpIn, engine.EvPileFlip, engine.EvPile:
		ev["card"] = e.Card.Name()
	case engine.EvColor, engine.EvPileStart:
		ev["color"] = e.Color.String()
	}
	if err := x.bot.send(map[string]any{"type": "event", "game": x.game, "seat": v.Seat(), "event": ev}); err != nil {
		x.bot.sendFailed(v.Seat(), x.game, "event", err)
	}
}

// Decide implements engine.Strategy.
func (x *Exec) Decide(v *engine.View, moves []engine.Move) int {
	if !x.begun || x.game != v.Game() {
		x.Begin(v) // not told by a Game (a wrapper hides Begin)
	}
	seat, what := v.Seat(), "decision "+v.Decision().String()
	if !x.bot.ready(seat, x.game) {
		return 0
	}
	ms := make([]map[string]any, len(moves))
	for i, m := range moves {
		ms[i] = moveJSON(m)
	}
	// A line already waiting answers nothing: taken as the answer to this
	// decision it would shift every answer after it. (One that arrives
	// later than this check is caught at a later decision.)
	select {
	case line, ok := <-x.bot.lines:
		if ok {
			x.bot.fail(seat, x.game, what, "it printed %q when no answer was due (one line answers each decide; hello, begin and event get none)", clip(line))
			return 0
		}
		// stdout ended: receive reports it (a closed channel stays closed)
	default:
	}
	msg := map[string]any{"type": "decide", "game": x.game, "seat": seat, "decision": v.Decision().String(), "view": viewJSON(v), "moves": ms}
	if err := x.bot.send(msg); err != nil {
		x.bot.sendFailed(seat, x.game, what, err)
		return 0
	}
	line, err := x.bot.receive()
	if err != nil {
		x.bot.fail(seat, x.game, what, "%v", err)
		return 0
	}
	var ans struct {
		Move *int `json:"move"`
	}
	if err := json.Unmarshal(line, &ans); err != nil || ans.Move == nil {
		x.bot.fail(seat, x.game, what, "it answered %q, want {\"move\": INDEX}", clip(line))
		return 0
	}
	if *ans.Move < 0 || *ans.Move >= len(moves) {
		x.bot.fail(seat, x.game, what, "it answered move %d, but there are %d moves (0 to %d)", *ans.Move, len(moves), len(moves)-1)
		return 0
	}
	return *ans.Move
}

func eventKindName(k engine.EventKind) string {
	names := [...]string{"round", "deal", "start-card", "turn", "play", "color", "draw", "draw-card", "keep", "uno-call", "uno-missed", "catch",
		"skip", "reverse", "challenge", "take-back", "reshuffle", "forgiven", "stack", "deflect", "jump-in", "swap", "rotate", "point",
		"pile-flip", "pile-start", "pile", "pile-take", "link", "link-end", "silence", "speak", "unsilence", "out", "blocked", "turn-cap", "round-end"}
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprint(int(k))
}

func moveJSON(m engine.Move) map[string]any {
	j := map[string]any{"kind": m.Kind().String(), "text": m.String()}
	switch m.Kind() {
	case engine.MovePlay, engine.MoveStack, engine.MoveDeflect, engine.MoveJump:
		j["card"] = m.Card().Name()
	case engine.MoveNameColor:
		j["color"] = m.Color().String()
	case engine.MoveTarget, engine.MovePoint:
		j["player"] = m.A()
	case engine.MoveLink:
		j["players"] = []int{m.A(), m.B()}
	}
	return j
}

func viewJSON(v *engine.View) map[string]any {
	n := v.Players()
	sizes, scores := make([]int, n), make([]int, n)
	uno, out, silenced := make([]bool, n), make([]bool, n), make([]bool, n)
	for p := range n {
		sizes[p], scores[p] = v.HandSize(p), v.Score(p)
		uno[p], out[p], silenced[p] = v.CalledUNO(p), v.Out(p), v.Silenced(p)
	}
	var hand []string
	for _, c := range v.Hand().Cards(nil) {
		hand = append(hand, c.Name())
	}
	j := map[string]any{
		"seat": v.Seat(), "hand": hand, "top": v.Top().Name(), "color": v.Color().String(), "direction": v.Direction(),
		"hand_sizes": sizes, "scores": scores, "called_uno": uno, "out": out, "silenced": silenced,
		"discard_size": v.DiscardSize(), "draw_pile_size": v.DrawPileSize(), "round": v.Round(), "turns": v.Turns(),
	}
	if d := v.Drawn(); d != engine.NoCard {
		j["drawn"] = d.Name()
	}
	if v.Decision() == engine.DecideRespond {
		sym, cards, by := v.Pending()
		j["pending"] = map[string]any{"symbol": sym.String(), "cards": cards, "by": by, "reference_color": v.ReferenceColor().String()}
	}
	if v.Decision() == engine.DecideCatch {
		j["uno_player"] = v.UNOPlayer()
	}
	if v.Decision() == engine.DecideTarget {
		j["target_for"] = v.TargetFor().Name()
	}
	if a, b, ok := v.Link(); ok {
		j["link"] = []int{a, b}
	}
	if cards, c := v.MiniPile(); cards > 0 {
		j["mini_pile"] = map[string]any{"cards": cards, "color": c.String()}
	}
	return j
}
