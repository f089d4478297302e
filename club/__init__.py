"""A club night: table links, the hub and its broker (an adapter around `companion`; MQTT through Mosquitto)."""
