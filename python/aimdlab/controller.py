"""Congestion controllers written in Python.

Subclass `Controller` and write the rule, as Linux's congestion ops are written: how the
window grows (`cong_avoid`) and the threshold after a congestion signal (`ssthresh`). The
transport keeps the window and hands it over as `w` (an `aimdlab.Window`: `w.cwnd`,
`w.ssthresh`, packets); pass an instance as a flow group's `cc`::

    class MyAimd(aimdlab.Controller):
        def __init__(self, alpha=1.0, beta=0.5):
            super().__init__()
            self.alpha, self.beta = alpha, beta

        def cong_avoid(self, w, ack):       # an ACK of new data, outside recovery
            w.aimd_step(self.alpha)         # slow start, else alpha/cwnd an ACK

        def ssthresh(self, w, event):       # after a loss, timeout or ECN echo
            return self.beta * w.cwnd

    scenario["flows"][0]["cc"] = MyAimd(alpha=0.31, beta=0.875)
    aimdlab.run(scenario)

The transport calls `cong_avoid` only on an ACK of new data outside fast recovery and CWR,
once a growth step: an ACK, or each segment under `tcp.cwnd_growth = "per_segment"` (in it,
`ack.newly_acked_pkts` is the segments the step stands for). After a signal it cuts: ssthresh = max(the
answer, 2), cwnd = ssthresh after a loss or ECN echo, 1 packet after a timeout (RFC 5681).
`w.slow_start()` (one packet while below ssthresh; whether it applied),
`w.additive_increase(a)` (a/cwnd) and `w.aimd_step(a)` (both) are the shared steps; anything
else sets `w.cwnd` directly. A rule that wants every ACK (RTT samples in recovery too)
defines `on_ack(ack)` as well.

A controller may instead keep the window itself: no `cong_avoid`/`ssthresh`, but `on_ack(ack)`
and `on_congestion(event)` over `self.cwnd` and `self.ssthresh` — every ACK and signal reaches
it, recovery included, and the window it leaves is the flow's (the first form's rule, as
`on_ack` must check `ack.in_recovery` and `ack.newly_acked_pkts` and cut the window itself).

A scenario file, a sweep or a dict can name the class instead, with keyword arguments for
its constructor beside it::

    [[flows]]
    cc = { python = "mymod:MyAimd", alpha = 0.31, beta = 0.875 }   # or cc = "mymod:MyAimd"

The module is imported as `aimdlab.imports` says (`sys.path`, then the current folder), in
whichever process runs the flow; the parameters are fields like any other (`--set
flows[0].cc.alpha=0.5`, a sweep axis `"flows[0].cc.alpha"`), and the flows table's `cc`
column records `mymod:MyAimd`. A run of an instance records `module:Class` of its class.

A group of `count = N` flows runs N independent deep copies of the instance. The engine
calls the hooks from the simulation (each call takes the GIL: a few microseconds, see the
README); a controller that keeps its own window has `cwnd`/`ssthresh` set to the flow's
initial window and threshold when they are None, and they are read after each call. A controller that paces sets
`pacing_rate_bps`: the sender then lets packets leave no faster than that rate (one packet's
serialization time apart), within the window. `state()` may return named numbers to record in
the time series. An exception in a hook stops the run and is raised by `aimdlab.run`.

The stack's window rules apply to a Python controller as to a built-in one: with
`tcp.first_decrease = "half"` or `tcp.timeout_ssthresh = "half"` (the ns2 profile) the
sender halves the window after the cut when ns-2 would (into `cwnd` and `ssthresh` of a
controller that keeps its own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Optional

if TYPE_CHECKING:  # pragma: no cover
    from ._core import AckEvent, CongestionEvent

__all__ = ["Controller", "build_controller", "controller_label", "engine_view", "is_class_spec", "python_controllers"]


def _default_hook(f: Callable[..., None]) -> Callable[..., None]:
    """Marks one of `Controller`'s do-nothing hooks: the engine does not call it."""
    f._aimdlab_default_hook = True  # type: ignore[attr-defined]
    return f


def is_rule(cls: type) -> bool:
    """Whether controller class `cls` is written as a rule (`cong_avoid` or a `ssthresh`
    method) rather than keeping its own window."""
    return hasattr(cls, "cong_avoid") or callable(getattr(cls, "ssthresh", None))


class Controller:
    """Base class of congestion controllers written in Python: a rule (`cong_avoid(w, ack)`
    and `ssthresh(w, event)` over the transport's window) or a controller that keeps its own
    window (`on_ack`, `on_congestion` over `cwnd`, `ssthresh`); see the module's doc.

    Attributes:
        cwnd: congestion window, packets, of a controller that keeps its own (None until the
            engine sets the initial window).
        ssthresh: slow-start threshold, packets, likewise (∞ means unbounded).
        pacing_rate_bps: pacing rate, bits per second (None: no pacing).
    """

    def __init__(self) -> None:
        if not is_rule(type(self)):
            self.cwnd: Optional[float] = None
            self.ssthresh: Optional[float] = None
        self.pacing_rate_bps: Optional[float] = None

    @_default_hook
    def on_ack(self, ack: "AckEvent") -> None:
        """An ACK arrived. `ack` (an `aimdlab.AckEvent`) has `now_s`, `newly_acked_pkts` (0 for
        a duplicate), `rtt_s`, `srtt_s`, `min_rtt_s`, `ece`, `in_recovery`, `pkts_in_flight`;
        `rtt_s` and `min_rtt_s` are what the stack hands its controllers (`tcp.controller_rtt`)."""

    @_default_hook
    def on_congestion(self, event: "CongestionEvent") -> None:
        """A congestion signal (an `aimdlab.CongestionEvent`). `event.kind` is "loss" (fast
        retransmit), "timeout" or "ecn"; also `now_s`, `pkts_in_flight`, `srtt_s`."""

    def state(self) -> Dict[str, float]:
        """Named numbers to record in the time series at every sample (default: none)."""
        return {}


PYTHON_KEY = "python"
"""The key of a `cc` table naming a Python class: `{ python = "module:Class", ... }`."""


def is_class_spec(cc: Any) -> bool:
    """Whether a flow group's `cc` names a Python class: a table with `python`, or a name
    with a colon (`"mymod:MyAimd"`)."""
    return (isinstance(cc, dict) and PYTHON_KEY in cc) or (isinstance(cc, str) and ":" in cc)


def _is_python(cc: Any) -> bool:
    return isinstance(cc, Controller) or is_class_spec(cc)


def controller_label(cc: Any) -> str:
    """What the flows table's `cc` column records for a Python controller: the class as the
    scenario names it, or `module:Class` of an instance's class."""
    if isinstance(cc, Controller):
        return f"{type(cc).__module__}:{type(cc).__qualname__}"
    from .imports import split_name

    module, name = split_name(cc[PYTHON_KEY] if isinstance(cc, dict) else cc)
    return f"{module}:{name}"


def build_controller(cc: Any, where: str) -> Controller:
    """The `Controller` a group's `cc` (at field `where`, e.g. `flows[0].cc`) stands for: the
    instance itself, or a new instance of the class it names, made with its parameters.
    Raises `ScenarioError` naming the field: a module or class that cannot be found, a class
    that is not a `Controller`, a parameter its constructor does not take or refuses."""
    import difflib
    import inspect

    from .errors import ScenarioError
    from .imports import USER_CODE_ERRORS, ImportNameError, import_name, raised

    if isinstance(cc, Controller):
        return cc
    text = cc[PYTHON_KEY] if isinstance(cc, dict) else cc
    params = {k: v for k, v in cc.items() if k != PYTHON_KEY} if isinstance(cc, dict) else {}
    field = f"{where}.{PYTHON_KEY}" if isinstance(cc, dict) else where
    try:
        cls = import_name(text)
    except ImportNameError as e:
        raise ScenarioError(f"{field}: {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Controller)):
        kind = "class" if isinstance(cls, type) else type(cls).__name__
        raise ScenarioError(f"{field}: {text!r} is a {kind} that is not a subclass of aimdlab.Controller; "
                            "expected a controller class (see aimdlab.Controller)")
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):  # (a class whose signature Python cannot tell)
        signature = None
    if signature is not None:
        takes = [p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        open_ended = any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values())
        for name in params:
            if name not in takes and not open_ended:
                accepted = f"it takes {', '.join(takes)}" if takes else "it takes no parameters"
                near = difflib.get_close_matches(name, takes, n=2, cutoff=0.75)
                typo = f" (did you mean {near[0]}?)" if len(near) == 1 else ""
                raise ScenarioError(f"{where}.{name}: is not a parameter of {text}; {accepted}{typo}")
        missing = [p.name for p in signature.parameters.values()
                   if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in params]
        if missing:
            raise ScenarioError(f"{where}: {text} needs {', '.join(missing)}; give {'them' if len(missing) > 1 else 'it'} "
                                f"beside python = {text!r}")
    try:
        made = cls(**params)
    except USER_CODE_ERRORS as e:
        shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
        raise ScenarioError(f"{where}: {text}({shown}) raised {raised(e)}") from None
    return made


def python_controllers(scenario: Any) -> Dict[int, Controller]:
    """Flow group index → the `Controller` its `cc` stands for (see `build_controller`), for
    the groups with a Python controller."""
    flows = scenario.get("flows") if isinstance(scenario, dict) else None
    if not isinstance(flows, list):
        return {}
    return {i: build_controller(g["cc"], f"flows[{i}].cc") for i, g in enumerate(flows) if isinstance(g, dict) and _is_python(g.get("cc"))}


def _cc_named_python(scenario: Any, replaced: Callable[[Any], bool]) -> Any:
    """`scenario` with the `cc` of each flow group for which `replaced(cc)` holds set to the
    name "python" (the scenario itself when there is none)."""
    flows = scenario.get("flows") if isinstance(scenario, dict) else None
    if not isinstance(flows, list) or not any(isinstance(g, dict) and replaced(g.get("cc")) for g in flows):
        return scenario
    return {**scenario, "flows": [dict(g, cc="python") if isinstance(g, dict) and replaced(g.get("cc")) else g for g in flows]}


def engine_view(scenario: Any) -> Any:
    """`scenario` as the engine reads it: each flow group's Python controller (an instance or
    a class it names) replaced by the name "python" (it runs in Python, one copy per flow)."""
    return _cc_named_python(scenario, _is_python)


def recorded_view(scenario: Any) -> Any:
    """`scenario` as a run records it: an instance replaced by "python" (an object is not
    data); a class named with its parameters kept as written (a run of it can be repeated)."""
    return _cc_named_python(scenario, lambda cc: isinstance(cc, Controller))
