package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dslint/dslint/internal/lint"
	"github.com/dslint/dslint/internal/report"
)

const scheduleUsage = `dslint schedule [flags] PATH...

Shows which nodes the pods of each workload can land on: a matrix of
workloads and node pools (nodes with the same labels, taints, cordoning and
allocatable resources),
with the first filter that blocks them where they cannot. DaemonSets show
DESIRED as kubectl get ds would. The nodes come from --nodes files
(kubectl get nodes -o yaml or -o json) and from pools and nodes in
.dslint.yaml; Node objects among the inputs are not used unless their file
is named with --nodes.

Modelled as the scheduler and the DaemonSet controller decide: nodeName,
nodeSelector and required node affinity, NoSchedule and NoExecute taints with
tolerations (the DaemonSet controller's own included; PreferNoSchedule never
blocks), cordoned nodes (spec.unschedulable; DaemonSets ignore it), and
NodeResourcesFit on an empty node: what each pod requests (containers,
init containers and sidecars, pod-level requests, overhead; a limit stands
in for a missing request) against the node's status.allocatable (else
status.capacity; a node that gives neither is not judged on resources).
A DaemonSet's DESIRED counts nodes too small for its pods, as the
controller does: its pods stay Pending there. A node must also carry the
topology key of every DoNotSchedule spread constraint and every required pod
affinity term.

FITS counts the replicas an empty cluster holds (placed/wanted), as the
scheduler places them one by one: resources and host ports per node,
required anti-affinity among the workload's own pods (one per topology
domain), DoNotSchedule spread among them (each domain at most maxSkew above
the emptiest), required affinity to them (all in the first one's domain);
then what holds the rest back. "≤" marks an upper bound, where the count
depends on the nodes the scheduler picks.

Pools declared with owners in .dslint.yaml (pools: with owners:, the
namespaces and pod labels that may use a pool) are listed under the matrix
with their owners and their nodes in the inventory: for a pool with count,
the inventory pool of its name; otherwise the pools whose nodes carry every
label it declares (none: the pool has no nodes in this inventory). A cell
where a workload outside a pool's owners fits that pool's nodes reads "not
owner" (dslint lint reports it: pool-ownership). -f json lists those pools
("pools") and, for each placement, the pools whose ownership it breaks
("ownership": "asks" when its node constraint names the pool's label,
"lands" when it tolerates the pool's taints).

Not modelled: volumes, DRA, preemption, the pods already running on the
nodes, and affinity or anti-affinity to other workloads' pods.`

func runSchedule(e *env, args []string) (int, error) {
	var format, output string
	var cf configFlags
	fs := newFlagSet(e, "schedule", scheduleUsage)
	fs.StringVarP(&format, "format", "f", "text", "output format: "+quoteList(report.ScheduleFormats))
	fs.StringVarP(&output, "output", "o", "", "write the matrix to `FILE` instead of stdout")
	cf.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return 0, err
	}
	if !oneOf(format, report.ScheduleFormats) {
		return 0, usagef("unknown --format %q (want %s)", format, quoteList(report.ScheduleFormats))
	}
	paths, srcs, err := inputs(fs)
	if err != nil {
		return 0, err
	}
	rc, err := loadRunConfig(e, cf, paths, "", false, false)
	if err != nil {
		return 0, err
	}
	if len(rc.nodes) == 0 {
		return 0, usagef("schedule needs nodes: pass --nodes FILE (kubectl get nodes -o yaml > nodes.yaml), or declare pools: or nodes: in .dslint.yaml; Node objects among the inputs are used only from a file named with --nodes")
	}
	opts, err := rc.options(false)
	if err != nil {
		return 0, err
	}
	opts.Schedule = true
	out, problems := lint.Run(context.Background(), rc.exclude(srcs), e.stdin, opts)
	if err := inventoryError(problems); err != nil {
		return 0, err
	}
	if note := unusedNodesNote(out); note != "" {
		fmt.Fprintf(e.stderr, "dslint: note: %s\n", note)
	}
	if err := writeMatrix(e, output, format, out, report.ScheduleOptions{Pools: rc.cluster.Pools}); err != nil {
		return 0, err
	}
	return problemsExit(e, problems), nil
}

// writeMatrix streams the matrix to stdout or to --output; the file appears
// only once it is complete.
func writeMatrix(e *env, output, format string, out *lint.Outcome, opts report.ScheduleOptions) error {
	if output == "" {
		return report.WriteSchedule(e.stdout, format, out, opts)
	}
	f, err := os.CreateTemp(filepath.Dir(output), ".dslint-schedule-*")
	if err != nil {
		return usagef("write matrix: %v", err)
	}
	defer os.Remove(f.Name())
	if err := report.WriteSchedule(f, format, out, opts); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return usagef("write matrix: %v", err)
	}
	if err := os.Rename(f.Name(), output); err != nil {
		return usagef("write matrix: %v", err)
	}
	return nil
}
