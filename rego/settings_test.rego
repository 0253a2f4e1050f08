# Run settings and their defaults.
package dslint.lib.settings_test

import data.dslint.lib.settings

test_system_taints_by_default if {
	settings.is_system_taint("node.kubernetes.io/not-ready")
	settings.is_system_taint("node-role.kubernetes.io/control-plane")
	settings.is_system_taint("node.cloudprovider.kubernetes.io/uninitialized")
	settings.is_system_taint("node.kubernetes.io/out-of-service")
	not settings.is_system_taint("node.kubernetes.io")
	not settings.is_system_taint("node-role.kubernetes.io")
	not settings.is_system_taint("dedicated")
	not settings.is_system_taint("example.com/node.kubernetes.io/x")
}

# An entry ending in "/" is a prefix, any other entry an exact key.
test_configured_system_taints if {
	settings.is_system_taint("example.com/gpu") with data.dslint.config.systemTaints as ["example.com/"]
	settings.is_system_taint("pool") with data.dslint.config.systemTaints as ["example.com/", "pool"]
	not settings.is_system_taint("pool-a") with data.dslint.config.systemTaints as ["example.com/", "pool"]
	not settings.is_system_taint("node.kubernetes.io/not-ready") with data.dslint.config.systemTaints as ["example.com/"]
	not settings.is_system_taint("a") with data.dslint.config.systemTaints as []
}

# The target Kubernetes version is the newest supported unless the run names
# one; only its minor number is kept.
test_kubernetes_minor_by_default if {
	settings.kubernetes_minor == 36
}

test_configured_kubernetes_minor if {
	settings.kubernetes_minor == 30 with data.dslint.config.kubernetesVersion as "1.30"
	settings.kubernetes_minor == 20 with data.dslint.config.kubernetesVersion as "1.20"
	settings.kubernetes_minor == 36 with data.dslint.config as {"systemTaints": ["example.com/"]}
}
