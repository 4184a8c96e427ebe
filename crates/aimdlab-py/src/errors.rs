//! The exceptions the bindings raise. They are Python classes (`aimdlab.errors`), so that they
//! pickle with their message (a sweep's worker hands them back to the caller).

use pyo3::import_exception;

import_exception!(aimdlab.errors, ScenarioError);
import_exception!(aimdlab.errors, EngineError);
import_exception!(aimdlab.errors, RunCancelled);
import_exception!(aimdlab.errors, ControllerError);
