"""Bad input gets a clear error naming the field, the value and what is accepted."""

from __future__ import annotations

import copy

import aimdlab
import pytest
from conftest import CONTROLLER_NAMES, QUEUE_KINDS, dumbbell

CASES = [
    # (path in the scenario, bad value, text the error must contain)
    (("flows", 0, "start"), "-1s", 'flows[0].start: "-1s" is negative; expected a duration ≥ 0'),
    (("topology", "dumbbell", "bottleneck", "rate"), "5Mbs", 'topology.dumbbell.bottleneck.rate: "5Mbs" has an unknown unit'),
    (("topology", "dumbbell", "bottleneck", "delay"), "30", 'topology.dumbbell.bottleneck.delay: "30" has no unit'),
    (("topology", "dumbbell", "bottleneck", "queue", "limit"), "0pkt", "topology.dumbbell.bottleneck.queue.limit"),
    (("topology", "dumbbell", "bottleneck", "queue", "kind"), "fifo", '"fifo" is not a queue discipline; expected one of ' + QUEUE_KINDS),
    (("flows", 0, "cc"), "cubicc", 'flows[0].cc: "cubicc" is not a known controller; expected one of ' + CONTROLLER_NAMES),
    (("flows", 0, "count"), 0, "flows[0].count: 0 makes no flows"),
    (("warmup",), "60s", "warmup: 60s is not before the end of the run (30s)"),
    (("tcp", "sack"), "yes", 'tcp.sack: "yes" is not valid; expected true or false'),
    (("tcp", "mss"), "1460", 'tcp.mss: "1460" has no unit'),
    (("flows", 0, "stop"), "0s", "flows[0].stop: 0s is not after start"),
]


def set_path(d, path, value):
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


@pytest.mark.parametrize("path,value,expected", CASES, ids=[".".join(map(str, c[0])) for c in CASES])
def test_bad_field_is_named(path, value, expected):
    sc = copy.deepcopy(dumbbell())
    set_path(sc, path, value)
    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.run(sc)
    assert expected in str(e.value)


def test_unknown_fields_are_errors_listing_the_valid_ones():
    sc = dumbbell()
    sc["topology"]["dumbbell"]["bottlenek"] = sc["topology"]["dumbbell"].pop("bottleneck")
    with pytest.raises(aimdlab.ScenarioError, match=r"topology\.dumbbell\.bottlenek: is not a parameter of the dumbbell table; it takes "
                                                    r"bottleneck, .*\(did you mean bottleneck\?\)$"):
        aimdlab.validate(sc)
    sc = dumbbell()
    sc["flows"][0]["strat"] = "1s"
    with pytest.raises(aimdlab.ScenarioError, match=r"flows\[0\]\.strat: is not a parameter of the flows table; it takes .*start.*\(did you mean start\?\)$"):
        aimdlab.validate(sc)


def test_every_table_words_a_field_it_does_not_take_alike():
    # One wording wherever a table is read: the scenario's own tables, a controller's, a
    # queue's kind, the tcp table; a name two edits from an accepted one is named as a typo.
    cases = [({"tcp": {"mms": "1000B"}}, "tcp.mms: is not a parameter of the tcp table; it takes profile, ", " (did you mean mss?)"),
             ({"flows": [{"cc": {"name": "gaimd", "bta": 0.5}}]}, 'flows[0].cc.bta: is not a parameter of "gaimd"; it takes alpha, beta, friendly_curve', " (did you mean beta?)"),
             ({"flows": [{"app": {"kind": "onoff", "onn": "1s"}}]}, 'flows[0].app.onn: is not a parameter of kind = "onoff"; it takes kind, ', " (did you mean on?)"),
             ({"flows": [{"cc": {"name": "gaimd", "gamma": 0.5}}]}, 'flows[0].cc.gamma: is not a parameter of "gaimd"; it takes alpha, beta, friendly_curve', "friendly_curve")]
    for change, start, end in cases:
        sc = {**dumbbell(), **change}
        with pytest.raises(aimdlab.ScenarioError) as e:
            aimdlab.validate(sc)
        assert str(e.value).startswith(start) and str(e.value).endswith(end), str(e.value)


def test_rack_with_ns2_sack1_is_no_stack():
    sc = dumbbell()
    sc["tcp"] = {"profile": "ns2", "recovery": "sack", "loss_detection": "rack_tlp"}
    with pytest.raises(aimdlab.ScenarioError, match=r'tcp\.loss_detection: "rack_tlp" with recovery_rules = "ns2" and SACK is no stack'):
        aimdlab.validate(sc)
    sc["tcp"]["recovery"] = "newreno"  # without SACK, RACK is not used: duplicate ACKs find losses
    aimdlab.validate(sc)


def test_scenario_error_is_a_value_error():
    assert issubclass(aimdlab.ScenarioError, ValueError)


def test_explicit_topology_names_unknown_nodes_and_missing_routes():
    sc = {
        "duration": "1s",
        "topology": {"explicit": {"nodes": ["a", "b", "c"], "links": [{"from": "a", "to": "bb", "rate": "1Mbps", "delay": "1ms"}]}},
        "flows": [{"src": "a", "dst": "b"}],
    }
    with pytest.raises(aimdlab.ScenarioError, match=r'topology\.explicit\.links\[0\]\.to: "bb" is not a node'):
        aimdlab.validate(sc)
    sc["topology"]["explicit"]["links"][0]["to"] = "b"
    sc["flows"][0]["dst"] = "c"
    with pytest.raises(aimdlab.ScenarioError, match="no route from"):
        aimdlab.validate(sc)


def test_bad_toml_names_the_file_and_line(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('duration = "10s"\n[topology.dumbbell\n')
    with pytest.raises(aimdlab.ScenarioError, match=r"bad\.toml: topology\.dumbbell: not valid TOML.*line 2"):
        aimdlab.load(p)


def test_set_overrides_parse_values_and_paths():
    sc = aimdlab.apply_overrides(dumbbell(), ["flows[0].count=3", "tcp.sack=false", "topology.dumbbell.bottleneck.rate=2Mbps"])
    assert sc["flows"][0]["count"] == 3 and sc["tcp"]["sack"] is False
    assert sc["topology"]["dumbbell"]["bottleneck"]["rate"] == "2Mbps"
    with pytest.raises(aimdlab.ScenarioError, match="index 5 does not exist"):
        aimdlab.apply_overrides(dumbbell(), ["flows[5]=1"])
    with pytest.raises(aimdlab.ScenarioError, match="expected key=value"):
        aimdlab.apply_overrides(dumbbell(), ["flows"])


def test_a_scenario_error_survives_pickling_so_a_worker_process_can_report_it():
    import pickle

    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.validate({"name": "x", "duration": "-1s"})
    again = pickle.loads(pickle.dumps(e.value))
    assert type(again) is aimdlab.ScenarioError and str(again) == str(e.value)


def test_a_toml_syntax_error_names_the_file_the_line_and_the_key(tmp_path):
    # Malformed experiment and scenario TOML gave the line and column but no field.
    from aimdlab.sweep import load_experiment

    (tmp_path / "s.toml").write_text('duration = "1s"\n[topology.dumbbell]\nbottleneck = { rate = "10Mbps", delay = 10ms }\n')
    with pytest.raises(aimdlab.ScenarioError) as e:
        aimdlab.load(tmp_path / "s.toml")
    assert str(e.value).startswith(f"{tmp_path / 's.toml'}: topology.dumbbell.bottleneck: not valid TOML: ") and "line 3" in str(e.value)
    (tmp_path / "e.toml").write_text('name = "x"\n[axes]\n"flows[0].count" = [1, 2\n')
    with pytest.raises(aimdlab.ScenarioError) as e:
        load_experiment(tmp_path / "e.toml")
    assert 'axes."flows[0].count": not valid TOML: Unclosed array' in str(e.value), str(e.value)


RUST_WORDING = ("invalid type", "invalid value", "unknown variant", "expected u", "expected i", "expected f64", "expected struct",
                "string or map", "expected enum")
WRONG_VALUES = [1.5, -1, "zz", True, [1], {"zz": 1}]


def _tables(definition: str):
    """Each kind of a table of the schema's `definition` (a controller, a queue, an application):
    its parameters, and its own name field and value."""
    import json

    schema = json.loads(aimdlab._core.schema())
    for alt in schema["definitions"][definition]["anyOf"]:
        props = alt.get("properties") or {}
        for key in ("name", "kind"):
            if key in props and props[key].get("enum"):
                yield key, props[key]["enum"][0], [p for p in props if p != key]


def _refusal(scenario) -> str:
    try:
        aimdlab.validate(scenario)
    except aimdlab.ScenarioError as e:
        return str(e)
    return ""


def test_every_wrong_type_of_every_parameter_is_refused_in_the_projects_words():
    # serde_worded_field_errors.toml: a quarter of the new controllers' refusals said
    # "invalid type: floating point `1.5`, expected string or map".
    seen = 0
    places = [("cc", ("flows", 0, "cc")), ("QueueSpec", ("topology", "dumbbell", "bottleneck", "queue")),
              ("AppSpec", ("flows", 0, "app"))]
    for definition, path in places:
        for key, name, params in _tables("CcSpec" if definition == "cc" else definition):
            for param in params:
                for value in WRONG_VALUES:
                    sc = dumbbell(duration="1s")
                    set_path(sc, path, {key: name, param: value})
                    message = _refusal(sc)
                    if message:
                        seen += 1
                        assert not any(w in message for w in RUST_WORDING), message
                        assert message.startswith(".".join(str(p) for p in path).replace(".0.", "[0].")), message
    assert seen > 500, "the refusals were generated"
