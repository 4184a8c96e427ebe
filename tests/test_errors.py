"""aimdlab's exceptions: each is importable from `aimdlab`, pickles with its message (so a
worker process or a Dask worker hands it back whole), and the engine raises these classes."""

import pickle

import aimdlab
import aimdlab.package_data
import pytest
from aimdlab import errors
from aimdlab.sweep.executor import ordered_map

ALL = [getattr(errors, name) for name in errors.__all__]


@pytest.mark.parametrize("cls", ALL, ids=[c.__name__ for c in ALL])
def test_every_exception_pickles_with_its_message(cls):
    err = cls("flows[0].count: 0 is not valid; expected an integer from 1")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is cls
    assert str(back) == str(err)
    assert getattr(aimdlab, cls.__name__) is cls
    assert cls.__module__ == "aimdlab.errors"


def test_the_engine_raises_the_package_classes():
    assert aimdlab._core.ScenarioError is aimdlab.ScenarioError
    assert aimdlab._core.EngineError is aimdlab.EngineError
    assert aimdlab._core.RunCancelled is aimdlab.RunCancelled
    with pytest.raises(aimdlab.ScenarioError, match="duration"):
        aimdlab.validate({"duration": "5 parsecs"})


def _validate(scenario):
    aimdlab.validate(scenario)
    return "ok"


def test_an_error_in_a_worker_process_arrives_with_its_class_and_message():
    good = aimdlab.load(aimdlab.package_data.package_folder("examples") / "utilization.toml")
    bad = {**good, "duration": "5mbit"}
    assert ordered_map(_validate, [good, good], jobs=2) == ["ok", "ok"]
    with pytest.raises(aimdlab.ScenarioError, match=r'^duration: "5mbit" has an unknown unit "mbit"; expected a duration'):
        ordered_map(_validate, [good, bad], jobs=2)
