package engine

// unreadFields are keys no built-in rule or library function reads, at any
// depth: the bulk of a pod spec (container environment, commands, probes,
// volume mounts). Converting them to Rego values was a fifth of the cost of
// checking a typical workload. Resources (extended resources pin pods) and
// volumes (kubelet plugins mount their sockets) are read.
// TestUnreadFieldsAreUnread fails when a Rego file names one of them; rules
// from outside dslint see every field.
var unreadFields = map[string]bool{
	"args": true, "command": true, "env": true, "envFrom": true, "imagePullPolicy": true,
	"lifecycle": true, "livenessProbe": true, "readinessProbe": true,
	"securityContext": true, "startupProbe": true, "volumeMounts": true,
}
