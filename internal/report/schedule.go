package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/dslint/dslint/internal/config"
	"github.com/dslint/dslint/internal/engine"
	"github.com/dslint/dslint/internal/finding"
	"github.com/dslint/dslint/internal/inventory"
	"github.com/dslint/dslint/internal/lint"
)

// ScheduleFormats lists the formats WriteSchedule accepts.
var ScheduleFormats = []string{"text", "markdown", "json"}

// ScheduleOptions change how the placement matrix looks, and what it shows
// besides the run's outcome.
type ScheduleOptions struct {
	MaxPools int // pool columns in text before the rest are folded (0: 8)
	MaxRows  int // workload rows in text before alike rows are folded (0: 60)
	// Pools are the pools the config declares: those with owners are
	// listed with them, and a workload that breaks their ownership is
	// marked where it fits their nodes.
	Pools []config.Pool
}

// WriteSchedule prints where each workload's pods can land.
func WriteSchedule(w io.Writer, format string, out *lint.Outcome, opts ScheduleOptions) error {
	switch format {
	case "text":
		return writeScheduleText(w, out, opts)
	case "markdown":
		return writeScheduleMarkdown(w, out, opts)
	case "json":
		return writeScheduleJSON(w, out, opts)
	}
	return fmt.Errorf("unknown format %q", format)
}

// --- JSON (SPEC §6) ---------------------------------------------------------

type nodeJSON struct {
	Name string `json:"name"`
	Pool string `json:"pool"`
}

// writeScheduleJSON streams the document: a placement lists every node of
// the inventory, so a large cluster makes a large document, and only one
// placement is held at a time. Each node and placement is one compact line.
func writeScheduleJSON(w io.Writer, out *lint.Outcome, opts ScheduleOptions) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	io.WriteString(bw, "{\"version\": 1,\n\"nodes\": [")
	for i, n := range out.Inventory.Nodes {
		if err := writeItem(bw, i, nodeJSON{Name: n.Name, Pool: n.Pool}); err != nil {
			return err
		}
	}
	// The declared pools with owners, when there are some.
	if owned := ownedPools(opts.Pools, out.Inventory); len(owned) > 0 {
		io.WriteString(bw, "\n],\n\"pools\": [")
		for i, o := range owned {
			if err := writeItem(bw, i, ownedPoolJSON{Name: o.Name, Owners: o.Owners, Nodes: o.Nodes}); err != nil {
				return err
			}
		}
	}
	io.WriteString(bw, "\n],\n\"placements\": [")
	enc := newPlacementEncoder(out.Inventory)
	for i, p := range out.Placements {
		c := p.Capacity
		head, err := json.Marshal(struct {
			Object      finding.Object `json:"object"`
			File        string         `json:"file"`
			Line        int            `json:"line"`
			Template    string         `json:"template,omitempty"` // which pod template, for kinds with several
			Replicas    int            `json:"replicas"`
			Placed      int            `json:"placed"`
			PlacedExact bool           `json:"placed_exact"`
			BlockedBy   string         `json:"blocked_by"`
			// Ownership are the declared pools whose owners the workload
			// is not among, though it asks for or can land on their nodes.
			Ownership []engine.OwnershipBreak `json:"ownership,omitempty"`
		}{p.Object, p.File, p.Line, p.Template, c.Replicas, c.Placed, c.Exact, c.BlockedBy, p.Ownership})
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
		bw.Write(head[:len(head)-1]) // without its closing brace
		bw.WriteByte(',')
		enc.write(bw, p.Placement)
		bw.WriteByte('}')
	}
	io.WriteString(bw, "\n]}\n")
	return bw.Flush()
}

// placementEncoder writes the "eligible" and "blocked" members of a
// placement. Pools judged as a whole are the rule, so the list of a pool's
// node names is encoded once and copied into every placement that has it.
// An entry of "blocked" is the node's head, encoded once per node, and its
// verdict's reason and detail, encoded once per pool of a placement (caching
// whole blocked lists by verdict missed on most placements, whose details
// name their own selectors, and cost more than it saved).
type placementEncoder struct {
	inv    *inventory.Inventory
	quoted map[string][]byte
	heads  map[*inventory.Node][]byte // `{"node":"name"` by node
	names  map[int][]byte
}

func newPlacementEncoder(inv *inventory.Inventory) *placementEncoder {
	return &placementEncoder{inv: inv, quoted: map[string][]byte{}, heads: map[*inventory.Node][]byte{}, names: map[int][]byte{}}
}

// write writes `"eligible":[...],"blocked":[...]`.
func (e *placementEncoder) write(w *bufio.Writer, p engine.Placement) {
	w.WriteString(`"eligible":[`)
	sep := false
	for _, pv := range p.Pools {
		if pv.Nodes == nil {
			if pv.Fits {
				sep = segment(w, e.poolNames(pv.Pool), sep)
			}
			continue
		}
		for j, n := range e.inv.Pools[pv.Pool].Nodes {
			if pv.Node(j).Fits {
				sep = segment(w, e.quote(n.Name), sep)
			}
		}
	}
	w.WriteString(`],"blocked":[`)
	sep = false
	for _, pv := range p.Pools {
		// Most nodes share the pool's verdict (its Others when the pool
		// is split): that reason and detail are quoted once per pool.
		common := pv.NodeVerdict
		if pv.Nodes != nil {
			common = pv.Others
		}
		var tail []byte
		if !common.Fits {
			tail = e.verdictTail(nil, common)
		}
		for j, n := range e.inv.Pools[pv.Pool].Nodes {
			v, apart := pv.Nodes[j]
			switch {
			case !apart && !common.Fits:
				sep = segment(w, e.nodeHead(n), sep)
				w.Write(tail)
			case apart && !v.Fits:
				sep = segment(w, e.nodeHead(n), sep)
				w.Write(e.verdictTail(nil, v))
			}
		}
	}
	w.WriteByte(']')
}

// segment writes b after a comma when something came before; it returns
// whether something has now.
func segment(w *bufio.Writer, b []byte, sep bool) bool {
	if len(b) == 0 {
		return sep
	}
	if sep {
		w.WriteByte(',')
	}
	w.Write(b)
	return true
}

func (e *placementEncoder) poolNames(pool int) []byte {
	b, ok := e.names[pool]
	if !ok {
		for i, n := range e.inv.Pools[pool].Nodes {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, e.quote(n.Name)...)
		}
		e.names[pool] = b
	}
	return b
}

// nodeHead is the start of a node's entry of "blocked": `{"node":"name"`.
func (e *placementEncoder) nodeHead(n *inventory.Node) []byte {
	h, ok := e.heads[n]
	if !ok {
		h = append([]byte(`{"node":`), e.quote(n.Name)...)
		e.heads[n] = h
	}
	return h
}

// verdictTail appends the rest of an entry of "blocked" to b: the verdict's
// reason and detail, and the closing brace.
func (e *placementEncoder) verdictTail(b []byte, v engine.NodeVerdict) []byte {
	b = append(append(b, `,"reason":`...), e.quote(v.Reason)...)
	b = append(append(b, `,"detail":`...), e.quote(v.Detail)...)
	return append(b, '}')
}

func (e *placementEncoder) quote(s string) []byte {
	q, ok := e.quoted[s]
	if !ok {
		q, _ = json.Marshal(s)
		e.quoted[s] = q
	}
	return q
}

// writeItem writes the i-th element of a JSON array on a line of its own.
func writeItem(w *bufio.Writer, i int, v any) error {
	if i > 0 {
		w.WriteByte(',')
	}
	w.WriteByte('\n')
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// --- the matrix, shared by text and markdown ------------------------------

// cell is what a workload's pods can do on one pool: fit on Fit of its
// Total nodes; when they fit on none, Reason says why (the most common
// first blocking filter) and Detail how. NotOwner marks a pool whose nodes
// the workload fits but belong to a declared pool whose ownership it
// breaks (markNotOwners).
type cell struct {
	Fit, Total     int
	Reason, Detail string
	NotOwner       bool
}

func (c cell) String() string {
	switch {
	case c.Fit == c.Total:
		return "✓" + c.notOwner()
	case c.Fit > 0:
		return fmt.Sprintf("%d/%d", c.Fit, c.Total) + c.notOwner()
	}
	return "✗ " + shortReason[c.Reason]
}

func (c cell) notOwner() string {
	if c.NotOwner {
		return " not owner"
	}
	return ""
}

// shortReason names the blocking filters briefly, for the text matrix.
var shortReason = map[string]string{
	"node-name": "name", "node-selector": "selector", "node-affinity": "affinity",
	"taint": "taint", "unschedulable": "cordoned", "resources": "resources",
	"spread": "spread", "affinity": "pod-affinity",
}

type row struct {
	p     lint.Placement
	cells []cell
}

// name names the workload, and the pod template for kinds with several
// ("ray spec.workerGroupSpecs[0].template.spec").
func (r row) name() string {
	name := r.p.Object.Name
	if r.p.Object.Namespace != "" {
		name = r.p.Object.Namespace + "/" + name
	}
	if r.p.Template != "" {
		name += " " + r.p.Template
	}
	return name
}

// fits is how many of the replicas an empty cluster holds, and what holds
// the others back: "3/3", "2/3 anti-affinity", "≤2/3 affinity" where the
// count is an upper bound (it depends on the nodes the scheduler picks).
func (r row) fits() string {
	c := r.p.Capacity
	s := fmt.Sprintf("%d/%d", c.Placed, c.Replicas)
	if !c.Exact {
		s = "≤" + s
	}
	if c.BlockedBy != "none" && c.BlockedBy != "" {
		s += " " + c.BlockedBy
	}
	return s
}

func (r row) desired() string {
	if r.p.Object.Kind == "DaemonSet" {
		return fmt.Sprint(r.p.Eligible)
	}
	return "-"
}

// matrix is a row per placement with a cell per pool of the inventory,
// marked where the workload breaks the ownership of a pool of owned.
func matrix(out *lint.Outcome, owned []ownedPool) []row {
	rows := make([]row, 0, len(out.Placements))
	for _, p := range out.Placements {
		r := row{p: p, cells: make([]cell, len(out.Inventory.Pools))}
		for _, pv := range p.Pools {
			c := cell{Total: len(out.Inventory.Pools[pv.Pool].Nodes)}
			reasons := map[engine.NodeVerdict]int{}
			count := func(v engine.NodeVerdict, n int) {
				if n == 0 {
					return
				}
				if v.Fits {
					c.Fit += n
				} else {
					reasons[v] += n
				}
			}
			if pv.Nodes == nil {
				count(pv.NodeVerdict, c.Total)
			} else {
				for _, v := range pv.Nodes {
					count(v, 1)
				}
				count(pv.Others, c.Total-len(pv.Nodes))
			}
			best := 0
			for v, n := range reasons {
				if n > best || (n == best && v.Detail < c.Detail) {
					best, c.Reason, c.Detail = n, v.Reason, v.Detail
				}
			}
			r.cells[pv.Pool] = c
		}
		rows = append(rows, r)
	}
	markNotOwners(rows, owned)
	return rows
}

// notModelled is what dslint schedule does not simulate.
const notModelled = "Not modelled: volumes, DRA, preemption, other pods already on the nodes; pod affinity to other workloads' pods."

// poolAllocatable is what each node of the pool allocates, briefly: cpu,
// memory, pods and extended resources ("-" when the nodes say nothing).
func poolAllocatable(p *inventory.Pool) string {
	a := p.Nodes[0].Allocatable
	if a == nil {
		return "-"
	}
	var names []string
	for name := range a {
		if name != "ephemeral-storage" && !strings.HasPrefix(name, "hugepages-") {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(x, y string) int {
		return cmp.Or(cmp.Compare(resourceRank(x), resourceRank(y)), strings.Compare(x, y))
	})
	parts := make([]string, 0, len(names))
	for _, name := range names {
		parts = append(parts, name+" "+showQuantity(name, a[name]))
	}
	return strings.Join(parts, ", ")
}

// showQuantity writes memory in GiB, as people size nodes ("30.0Gi" for
// kubectl's 31482988Ki), and other quantities as written.
func showQuantity(name string, v any) string {
	s := fmt.Sprint(v)
	if name != "memory" {
		return s
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return s
	}
	gi := float64(q.Value()) / (1 << 30)
	if gi < 1 {
		return fmt.Sprintf("%.0fMi", float64(q.Value())/(1<<20))
	}
	return strconv.FormatFloat(gi, 'f', 1, 64) + "Gi"
}

// resourceRank orders cpu, memory and pods before extended resources.
func resourceRank(name string) int {
	switch name {
	case "cpu":
		return 0
	case "memory":
		return 1
	case "pods":
		return 2
	}
	return 3
}

func atMost(c engine.Capacity) string {
	if c.Exact {
		return fmt.Sprint(c.Placed)
	}
	return fmt.Sprintf("at most %d", c.Placed)
}

// short are the rows with fewer replicas placed than wanted, though some
// land, with what holds the others back.
func short(rows []row) []string {
	var out []string
	for _, r := range rows {
		c := r.p.Capacity
		if c.Placed >= c.Replicas || c.Placed == 0 || c.Limit.Text == "" {
			continue
		}
		out = append(out, fmt.Sprintf("%s %s (%s:%d): %s of %d replicas: %s", r.p.Object.Kind, r.name(), r.p.File, r.p.Line, atMost(c), c.Replicas, c.Limit.Text))
	}
	return out
}

func poolTaints(p *inventory.Pool) string {
	var ts []string
	for _, t := range p.Nodes[0].Taints {
		m, _ := t.(map[string]any)
		s := fmt.Sprint(m["key"])
		if v, ok := m["value"].(string); ok && v != "" {
			s += "=" + v
		}
		ts = append(ts, s+":"+fmt.Sprint(m["effect"]))
	}
	if len(ts) == 0 {
		return "-"
	}
	return strings.Join(ts, ", ")
}

// stuck are the rows whose pods fit no node, with the pools each reason
// turns them away from (dslint lint's no-matching-nodes says it in full).
func stuck(rows []row, inv *inventory.Inventory) []string {
	var out []string
	for _, r := range rows {
		if r.p.Eligible > 0 {
			continue
		}
		var reasons []string
		byReason := map[string][]string{}
		for i, c := range r.cells {
			if _, ok := byReason[c.Reason]; !ok {
				reasons = append(reasons, c.Reason)
			}
			byReason[c.Reason] = append(byReason[c.Reason], inv.Pools[i].Name)
		}
		var why []string
		for _, reason := range reasons {
			pools := byReason[reason]
			if len(pools) > 3 {
				pools = append(pools[:3:3], fmt.Sprintf("%d more", len(byReason[reason])-3))
			}
			why = append(why, fmt.Sprintf("%s on %s", reason, strings.Join(pools, ", ")))
		}
		out = append(out, fmt.Sprintf("%s %s (%s:%d): %s", r.p.Object.Kind, r.name(), r.p.File, r.p.Line, strings.Join(why, "; ")))
	}
	return out
}

// --- text -------------------------------------------------------------------

func writeScheduleText(w io.Writer, out *lint.Outcome, opts ScheduleOptions) error {
	if opts.MaxPools <= 0 {
		opts.MaxPools = 8
	}
	if opts.MaxRows <= 0 {
		opts.MaxRows = 60
	}
	inv := out.Inventory
	owned := ownedPools(opts.Pools, inv)
	rows := matrix(out, owned)
	fmt.Fprintf(w, "%s on %s in %s\n\n", plural(out.Summary.Workloads, "workload"), plural(len(inv.Nodes), "node"), plural(len(inv.Pools), "pool"))

	// The biggest pools first: with many pools, the columns shown are the
	// ones that hold most of the cluster. Rows go by namespace and name.
	order := make([]int, len(inv.Pools))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(inv.Pools[b].Nodes) - len(inv.Pools[a].Nodes) })
	for i := range rows {
		cells := make([]cell, len(order))
		for k, p := range order {
			cells[k] = rows[i].cells[p]
		}
		rows[i].cells = cells
	}
	slices.SortStableFunc(rows, func(a, b row) int { return strings.Compare(a.name(), b.name()) })

	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POOL\tNODES\tTAINTS\tALLOCATABLE")
	for _, i := range order {
		p := inv.Pools[i]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", p.Name, len(p.Nodes), poolTaints(p), poolAllocatable(p))
	}
	tw.Flush()
	fmt.Fprintln(w)

	shown := min(len(inv.Pools), opts.MaxPools)
	folded := len(inv.Pools) - shown
	header := []string{"WORKLOAD", "KIND", "NODES", "DESIRED", "FITS"}
	for _, i := range order[:shown] {
		header = append(header, inv.Pools[i].Name)
	}
	if folded > 0 {
		header = append(header, fmt.Sprintf("%d MORE POOLS", folded))
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	lines, foldedRows := foldRows(rows, shown, opts.MaxRows)
	for _, l := range lines {
		fmt.Fprintln(tw, l)
	}
	tw.Flush()

	fmt.Fprintln(w, "\nFITS: replicas an empty cluster holds / replicas wanted (≤: at most, it depends on the nodes the scheduler picks), and what holds the rest back.")
	fmt.Fprintln(w, "✓ fits every node of the pool · n/m fits n of its m nodes · ✗ fits none, for the reason that blocks most of them:")
	fmt.Fprintln(w, "name (nodeName), selector (nodeSelector), affinity (required node affinity), taint (an untolerated taint), cordoned, resources (requests beyond what a node allocates), spread and pod-affinity (a topology key the node lacks)")
	if len(owned) > 0 {
		fmt.Fprintln(w, notOwnerLegend)
	}
	if folded > 0 {
		fmt.Fprintf(w, "%d pools are folded into the last column (nodes the pods fit there / all): see --format markdown or json for every pool.\n", folded)
	}
	if foldedRows > 0 {
		fmt.Fprintf(w, "%d workloads placed exactly like the row above them are folded into it (+N): see --format markdown or json for every workload.\n", foldedRows)
	}
	if len(owned) > 0 {
		fmt.Fprintln(w, "\nPools with owners (.dslint.yaml):")
		for _, l := range ownersLines(owned, inv) {
			fmt.Fprintln(w, "  "+l)
		}
	}
	if s := stuck(matrix(out, nil), inv); len(s) > 0 {
		fmt.Fprintln(w, "\nWorkloads that fit no node (dslint lint says why in full):")
		for _, l := range s {
			fmt.Fprintln(w, "  "+l)
		}
	}
	if s := short(rows); len(s) > 0 {
		fmt.Fprintln(w, "\nWorkloads with replicas that never land:")
		for _, l := range s {
			fmt.Fprintln(w, "  "+l)
		}
	}
	fmt.Fprintln(w, "\n"+notModelled)
	return nil
}

// foldRows renders the rows; past max rows, a workload placed exactly like
// the one before it (same kind, same cells) is counted into that line.
func foldRows(rows []row, shown, max int) (lines []string, folded int) {
	fold := len(rows) > max
	var last string
	alike := 0
	flush := func() {
		if alike > 0 {
			lines[len(lines)-1] = strings.Replace(lines[len(lines)-1], "\t", fmt.Sprintf(" (+%d)\t", alike), 1)
			folded += alike
		}
		alike = 0
	}
	for _, r := range rows {
		cells := make([]string, 0, shown+1)
		for _, c := range r.cells[:shown] {
			cells = append(cells, c.String())
		}
		if rest := r.cells[shown:]; len(rest) > 0 {
			var sum cell
			for _, c := range rest {
				sum.Fit, sum.Total, sum.NotOwner = sum.Fit+c.Fit, sum.Total+c.Total, sum.NotOwner || c.NotOwner
			}
			cells = append(cells, fmt.Sprintf("%d/%d", sum.Fit, sum.Total)+sum.notOwner())
		}
		key := r.p.Object.Kind + "\t" + fmt.Sprint(r.p.Eligible) + "\t" + r.fits() + "\t" + strings.Join(cells, "\t")
		if fold && key == last {
			alike++
			continue
		}
		flush()
		last = key
		lines = append(lines, fmt.Sprintf("%s\t%s\t%d\t%s\t%s\t%s", r.name(), r.p.Object.Kind, r.p.Eligible, r.desired(), r.fits(), strings.Join(cells, "\t")))
	}
	flush()
	return lines, folded
}

// --- markdown ---------------------------------------------------------------

func writeScheduleMarkdown(w io.Writer, out *lint.Outcome, opts ScheduleOptions) error {
	inv := out.Inventory
	owned := ownedPools(opts.Pools, inv)
	rows := matrix(out, owned)
	fmt.Fprintf(w, "### dslint schedule: %s on %s in %s\n\n", plural(out.Summary.Workloads, "workload"), plural(len(inv.Nodes), "node"), plural(len(inv.Pools), "pool"))
	fmt.Fprintln(w, "| pool | nodes | taints | allocatable |\n|---|---:|---|---|")
	for _, p := range inv.Pools {
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", mdEscape(p.Name), len(p.Nodes), mdEscape(poolTaints(p)), mdEscape(poolAllocatable(p)))
	}
	fmt.Fprint(w, "\n| workload | kind | nodes | desired | fits |")
	for _, p := range inv.Pools {
		fmt.Fprintf(w, " %s |", mdEscape(p.Name))
	}
	fmt.Fprint(w, "\n|---|---|---:|---:|---|")
	fmt.Fprint(w, strings.Repeat("---|", len(inv.Pools)))
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s |", mdEscape(r.name()), r.p.Object.Kind, r.p.Eligible, r.desired(), r.fits())
		for _, c := range r.cells {
			if c.Fit == 0 {
				fmt.Fprintf(w, " ✗ %s<br>%s |", c.Reason, mdEscape(c.Detail))
			} else {
				fmt.Fprintf(w, " %s |", c)
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\n✓ fits every node of the pool · n/m fits n of its m nodes · ✗ fits none, with the filter that blocks most of them.")
	if len(owned) > 0 {
		fmt.Fprintln(w, mdEscape(notOwnerLegend)+".")
		fmt.Fprintln(w, "\n**Pools with owners (.dslint.yaml):**")
		for _, l := range ownersLines(owned, inv) {
			// A namespace glob's "*" would start emphasis.
			fmt.Fprintln(w, "- "+strings.ReplaceAll(mdEscape(l), "*", `\*`))
		}
	}
	if s := stuck(rows, inv); len(s) > 0 {
		fmt.Fprintln(w, "\n**Workloads that fit no node:**")
		for _, l := range s {
			fmt.Fprintln(w, "- "+mdEscape(l))
		}
	}
	if s := short(rows); len(s) > 0 {
		fmt.Fprintln(w, "\n**Workloads with replicas that never land:**")
		for _, l := range s {
			fmt.Fprintln(w, "- "+mdEscape(l))
		}
	}
	fmt.Fprintln(w, "\n_"+notModelled+"_")
	return nil
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}
