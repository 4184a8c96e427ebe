"""Facts about the multimedia sources (VBR video, frame-size traces, VoIP) and the transports
that carry them."""

from __future__ import annotations

import aimdlab
import pytest
from conftest import dumbbell, run_checked


def source(app, transport="udp", **extra):
    return {"app": app, "transport": transport, **extra}


def idle_path_run(flow, duration="200s"):
    return run_checked(dumbbell(rate="100Mbps", duration=duration, warmup="0s", tcp={"mss": "1460B"}, flow=flow))


@pytest.mark.parametrize("transport", ["udp", "dccp", "tcp"])
def test_vbr_video_delivers_its_mean_rate_cut_into_mtu_packets(transport):
    # Defaults: 25 frames/s, GOP I + 11 P, means 3300 B and 1100 B: 1283.3 B per frame.
    f = idle_path_run(source({"kind": "vbr"}, transport)).flows.to_pandas().iloc[0]
    expected_bps = (3300 + 11 * 1100) / 12 * 25 * 8
    assert f["goodput_bps"] == pytest.approx(expected_bps, rel=0.03)
    if transport != "tcp":
        # An I frame (3300 B on average) takes three packets, a P frame one or two.
        assert f["received_pkts"] > 1.2 * 25 * 200
        assert f["loss_rate"] == pytest.approx(0.0, abs=1e-3)


def test_voip_talks_the_p59_share_of_the_time_in_small_packets():
    f = idle_path_run(source({"kind": "voip"})).flows.to_pandas().iloc[0]
    # 64 kbit/s during talk spurts of mean 1.004 s, pauses of 1.587 s: 38.7 % activity.
    assert f["goodput_bps"] == pytest.approx(64_000 * 1.004 / (1.004 + 1.587), rel=0.15)
    assert f["bytes_sent"] / f["data_pkts_sent"] == pytest.approx(160 + 40)


def test_a_frame_trace_is_replayed_from_a_file_next_to_the_scenario(tmp_path):
    (tmp_path / "traces").mkdir()
    frames = [(i, 40 * i, "I" if i % 12 == 0 else "P", 4000 if i % 12 == 0 else 900) for i in range(250)]
    (tmp_path / "traces" / "clip.txt").write_text("# frame time type size\n" + "".join(f"{n}\t{t}\t{k}\t{s}\n" for n, t, k, s in frames))
    scenario = tmp_path / "video.toml"
    scenario.write_text(
        'name = "trace"\nduration = "20s"\n'
        '[topology.dumbbell]\nbottleneck = { rate = "10Mbps", delay = "10ms" }\naccess = { rate = "100Mbps", delay = "1ms" }\n'
        '[[flows]]\ntransport = "dccp"\napp = { kind = "trace", file = "traces/clip.txt", repeat = false }\n'
    )
    r = aimdlab.run(scenario)
    f = r.flows.to_pandas().iloc[0]
    assert f["delivered_bytes"] == sum(s for *_, s in frames)
    # A 4000-byte I frame is three packets (1460 + 1460 + 1080), a P frame one.
    assert f["data_pkts_sent"] == sum(3 if s == 4000 else 1 for *_, s in frames)


@pytest.mark.parametrize(
    "text, message",
    [
        ("0 0 I 100\n1 40 P -5\n", r'line 2: size "-5" is not a whole number of bytes ≥ 0'),
        ("0 0 I 100\n1 forty P 5\n", r'line 2: time "forty" is not a number ≥ 0'),
        ("0 0 I\n", r"line 1: 3 columns; expected number, time, type and size"),
        ("# only a comment\n", r"has no frames"),
    ],
)
def test_a_bad_trace_names_the_file_and_line(tmp_path, text, message):
    trace = tmp_path / "bad.txt"
    trace.write_text(text)
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\.app\.file: .*bad\.txt: " + message):
        aimdlab.validate(dumbbell(flow=source({"kind": "trace", "file": str(trace)})))


@pytest.mark.parametrize(
    "app, path, message",
    [
        ({"kind": "vbr", "gop": "IPX"}, r"app\.gop", "has the frame type 'X'; expected only the letters I, P and B"),
        ({"kind": "vbr", "frame_rate": 0}, r"app\.frame_rate", "0 is out of range"),
        ({"kind": "trace"}, r"app\.file", "is missing; expected the path of a frame-size trace"),
        ({"kind": "trace", "file": "/no/such/trace.txt"}, r"app\.file", "cannot be read"),
        ({"kind": "voip", "codec_rate": "1bps"}, r"app\.codec_rate", "makes frames of 0 bytes"),
        # 1000-byte payloads: a frame may make at most 10,000 packets (10,000,000 B).
        ({"kind": "vbr", "i_mean": "20MB"}, r"app\.i_mean", "20000000 bytes make more than 10000 packets of 1000 payload bytes"),
    ],
)
def test_bad_source_settings_name_the_field(app, path, message):
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\." + path + ": .*" + message):
        aimdlab.validate(dumbbell(flow=source(app)))


def test_rfc3550_jitter_tracks_the_ipdv_and_both_are_zero_on_an_idle_path():
    idle = idle_path_run(source({"kind": "cbr", "rate": "1Mbps"}), duration="20s").flows.to_pandas().iloc[0]
    assert idle["jitter_ms"] == pytest.approx(0.0, abs=1e-9) and idle["jitter_rfc3550_ms"] == pytest.approx(0.0, abs=1e-9)
    # Behind a Reno flow's sawtooth queue, video frames see varying delays.
    sc = dumbbell(rate="2Mbps", duration="60s")
    sc["flows"].append(source({"kind": "vbr"}))
    f = run_checked(sc).flows.to_pandas().iloc[1]
    assert f["jitter_ms"] > 0.5 and 0.2 * f["jitter_ms"] < f["jitter_rfc3550_ms"] < 5 * f["jitter_ms"]


def test_a_trace_frame_of_too_many_packets_is_refused(tmp_path):
    trace = tmp_path / "huge.txt"
    trace.write_text("0 0 I 100\n1 40 I 20000000\n")
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\.app\.file: 20000000 bytes make more than 10000 packets"):
        aimdlab.validate(dumbbell(flow=source({"kind": "trace", "file": str(trace)})))
