# Run settings and their defaults.
package dslint.lib.settings

test_system_taints_by_default if {
	is_system_taint("node.kubernetes.io/not-ready")
	is_system_taint("node-role.kubernetes.io/control-plane")
	is_system_taint("node.cloudprovider.kubernetes.io/uninitialized")
	is_system_taint("node.kubernetes.io/out-of-service")
	not is_system_taint("node.kubernetes.io")
	not is_system_taint("node-role.kubernetes.io")
	not is_system_taint("dedicated")
	not is_system_taint("example.com/node.kubernetes.io/x")
}

# An entry ending in "/" is a prefix, any other entry an exact key.
test_configured_system_taints if {
	is_system_taint("example.com/gpu") with data.dslint.config.systemTaints as ["example.com/"]
	is_system_taint("pool") with data.dslint.config.systemTaints as ["example.com/", "pool"]
	not is_system_taint("pool-a") with data.dslint.config.systemTaints as ["example.com/", "pool"]
	not is_system_taint("node.kubernetes.io/not-ready") with data.dslint.config.systemTaints as ["example.com/"]
	not is_system_taint("a") with data.dslint.config.systemTaints as []
}

# The target Kubernetes version is the newest supported unless the run names
# one; only its minor number is kept.
test_kubernetes_minor_by_default if {
	kubernetes_minor == 36
}

test_configured_kubernetes_minor if {
	kubernetes_minor == 30 with data.dslint.config.kubernetesVersion as "1.30"
	kubernetes_minor == 20 with data.dslint.config.kubernetesVersion as "1.20"
	kubernetes_minor == 36 with data.dslint.config as {"systemTaints": ["example.com/"]}
}
