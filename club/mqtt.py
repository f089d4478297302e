"""One paho-mqtt client, set up the same way for the hub and the tables: MQTT 3.1.1 persistent session
(clean_session False), automatic reconnection, TLS when the URL says mqtts://."""

from __future__ import annotations

import ssl
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.topics import ClubURL

RECONNECT_MIN_SECONDS = 1
RECONNECT_MAX_SECONDS = 2
KEEPALIVE_SECONDS = 10


def make_client(url: ClubURL, client_id: str, *, manual_ack: bool = False, ca_file: Path | None = None,
                will: tuple[str, bytes] | None = None) -> mqtt.Client:
    """A paho client for `url`, not connected yet; `will` is a retained last-will (topic, payload)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False,
                         protocol=mqtt.MQTTv311, manual_ack=manual_ack)
    client.username_pw_set(url.user, url.password)
    client.reconnect_delay_set(RECONNECT_MIN_SECONDS, RECONNECT_MAX_SECONDS)
    client.max_queued_messages_set(0)  # unbounded: a table's pump itself bounds what it hands over
    client.max_inflight_messages_set(100)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    if url.tls:
        client.tls_set(ca_certs=str(ca_file) if ca_file else None, cert_reqs=ssl.CERT_REQUIRED,
                       tls_version=ssl.PROTOCOL_TLS_CLIENT)
    return client


def connect_in_background(client: mqtt.Client, url: ClubURL) -> None:
    """Start paho's network thread; it connects, and reconnects after any loss, on its own."""
    client.connect_async(url.host, url.port, keepalive=KEEPALIVE_SECONDS)
    client.loop_start()
