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


PROBE_SECONDS = 5.0


def probe(url: ClubURL, ca_file: Path | None = None, timeout: float = PROBE_SECONDS) -> str | None:
    """Try `url`'s credentials once (clean session, nothing published): None when the broker accepts them,
    else why not ("refused", "unreachable"): a join code is checked before a table keeps it."""
    import threading

    answered = threading.Event()
    verdict: list[str | None] = ["unreachable"]
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", clean_session=True, protocol=mqtt.MQTTv311,
                         reconnect_on_failure=False)
    client.username_pw_set(url.user, url.password)
    if url.tls:
        client.tls_set(ca_certs=str(ca_file) if ca_file else None, cert_reqs=ssl.CERT_REQUIRED,
                       tls_version=ssl.PROTOCOL_TLS_CLIENT)

    def on_connect(c: mqtt.Client, userdata: object, flags: object, reason: object, properties: object) -> None:
        verdict[0] = "refused" if getattr(reason, "is_failure", True) else None
        answered.set()

    client.on_connect = on_connect
    try:
        client.connect(url.host, url.port, keepalive=KEEPALIVE_SECONDS)
    except OSError:
        return "unreachable"
    client.loop_start()
    answered.wait(timeout)
    client.disconnect()
    client.loop_stop()
    return verdict[0]
