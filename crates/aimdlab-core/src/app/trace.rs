//! A frame-size trace: a video encoding replayed frame by frame, from a file in the format of
//! the public video trace libraries (ASU's, TKN's): one frame per line — number, time, type,
//! size in bytes — separated by spaces, tabs or commas; further columns (PSNR, ...) are
//! ignored, as are empty lines and lines starting with `#`. Each frame is written whole at
//! its time after the flow's start (times relative to the first frame); the transport cuts
//! it into packets of at most `mss` payload bytes. With `repeat` the trace starts again one
//! mean frame interval after its last frame.

use super::params::AppParams;
use super::source::{AppStep, Source, Write};
use crate::error::ParamError;
use crate::rng::RngStream;
use crate::units::{Bytes, SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The unit of a trace's time column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TimeUnit {
    /// Milliseconds (the ASU and TKN traces).
    #[default]
    Ms,
    /// Seconds.
    S,
}

/// The trace source's parameters (`app = { kind = "trace", file = "verbose_jurassic.txt" }`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TraceSpec {
    /// The trace file (relative paths are relative to the scenario file when it is loaded
    /// from one, else to the working directory): a regular file of at most 64 MiB whose frames'
    /// mean interval is at least 1us. Required.
    pub file: String,
    /// Unit of the time column: `"ms"` (default) or `"s"`.
    pub time_unit: TimeUnit,
    /// Replay the trace again when it ends. Default true.
    pub repeat: Option<bool>,
}

/// The largest trace file read: 64 MiB (a two-hour 60 fps trace is about 15 MB).
pub const MAX_TRACE_FILE_BYTES: u64 = 64 << 20;

/// The shortest mean frame interval of a trace (span over frames − 1): 1 µs. Replaying it
/// again one interval after its last frame, a trace of frames at one instant would replay
/// every picosecond and never let the simulated clock advance.
pub const MIN_MEAN_FRAME_INTERVAL: SimDuration = SimDuration::from_micros(1);

/// A trace's mean frame interval: its span over frames − 1 (40 ms for a single frame); the
/// replay period is the span plus one such interval.
fn mean_frame_interval(frames: &[(SimDuration, u64)]) -> SimDuration {
    let span = frames.last().map_or(SimDuration::ZERO, |f| f.0);
    if frames.len() > 1 {
        SimDuration(span.0 / (frames.len() as u64 - 1))
    } else {
        SimDuration::from_millis(40)
    }
}

/// The text of a trace file: a regular file (not a FIFO or a device, which could block or
/// never end) of at most `MAX_TRACE_FILE_BYTES`, read with that limit.
fn read_trace_file(path: &str) -> Result<String, ParamError> {
    use std::io::Read;
    let fail = |message: String| ParamError { field: "file", message };
    let unreadable = |e: std::io::Error| fail(format!("{path:?} cannot be read: {e}"));
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(fail(format!("{path:?} is not a regular file (a folder, FIFO or device); expected a frame-size trace file")));
    }
    let too_big = || fail(format!("{path:?} is larger than {} MiB; expected a frame-size trace file up to that size", MAX_TRACE_FILE_BYTES >> 20));
    if meta.len() > MAX_TRACE_FILE_BYTES {
        return Err(too_big());
    }
    let mut text = String::new();
    let file = std::fs::File::open(path).map_err(unreadable)?;
    file.take(MAX_TRACE_FILE_BYTES + 1).read_to_string(&mut text).map_err(unreadable)?;
    if text.len() as u64 > MAX_TRACE_FILE_BYTES {
        return Err(too_big()); // (it grew while being read)
    }
    Ok(text)
}

/// A loaded trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceConfig {
    /// (time after the first frame, bytes) of every frame, in order.
    pub frames: Arc<Vec<(SimDuration, u64)>>,
    /// Time from the start of one replay to the next (None: play once).
    pub period: Option<SimDuration>,
}

/// Reads a trace's text: `(time after the first frame, bytes)` per frame, or the line and
/// what is wrong with it.
pub fn parse_trace(text: &str, unit: TimeUnit) -> Result<Vec<(SimDuration, u64)>, String> {
    let mut frames = Vec::new();
    let mut first: Option<f64> = None;
    let mut last = f64::NEG_INFINITY;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ',').filter(|c| !c.is_empty()).collect();
        if cols.len() < 4 {
            return Err(format!("line {n}: {} columns; expected number, time, type and size", cols.len()));
        }
        let time: f64 = cols[1].parse().ok().filter(|t: &f64| t.is_finite() && *t >= 0.0).ok_or_else(|| format!("line {n}: time {:?} is not a number ≥ 0", cols[1]))?;
        let size: u64 = cols[3].parse().map_err(|_| format!("line {n}: size {:?} is not a whole number of bytes ≥ 0", cols[3]))?;
        if time < last {
            return Err(format!("line {n}: time {} comes before the previous frame's {last}; expected frames in time order", cols[1]));
        }
        last = time;
        let t0 = *first.get_or_insert(time);
        let scale = match unit {
            TimeUnit::Ms => 1e-3,
            TimeUnit::S => 1.0,
        };
        frames.push((SimDuration::from_secs_f64((time - t0) * scale), size));
    }
    if frames.is_empty() {
        return Err("has no frames; expected one frame per line: number, time, type, size".into());
    }
    Ok(frames)
}

/// A running trace source.
pub struct Trace {
    cfg: TraceConfig,
    next: usize,
    replay_start: SimTime,
    stopped: bool,
}

impl Source for Trace {
    fn start(&mut self, now: SimTime, _rng: &mut RngStream) -> Option<SimTime> {
        self.replay_start = now;
        Some(now + self.cfg.frames[0].0)
    }

    fn on_timer(&mut self, now: SimTime, _rng: &mut RngStream) -> AppStep {
        if self.stopped {
            return AppStep { write: Write::Nothing, next: None };
        }
        let bytes = self.cfg.frames[self.next].1;
        self.next += 1;
        if self.next == self.cfg.frames.len() {
            match self.cfg.period {
                Some(p) => {
                    self.next = 0;
                    self.replay_start += p;
                }
                None => return AppStep { write: Write::Bytes(bytes), next: None },
            }
        }
        let next = (self.replay_start + self.cfg.frames[self.next].0).max(now);
        AppStep { write: if bytes == 0 { Write::Nothing } else { Write::Bytes(bytes) }, next: Some(next) }
    }

    fn stop(&mut self) {
        self.stopped = true;
    }
}

impl AppParams for TraceSpec {
    const KIND: &'static str = "trace";
    const SELF_PACED: bool = true;
    type Config = TraceConfig;
    type App = Trace;
    fn resolve(&self, _packet: Bytes) -> Result<TraceConfig, ParamError> {
        if self.file.is_empty() {
            return Err(ParamError { field: "file", message: "is missing; expected the path of a frame-size trace".into() });
        }
        let text = read_trace_file(&self.file)?;
        let frames = parse_trace(&text, self.time_unit).map_err(|m| ParamError { field: "file", message: format!("{}: {m}", self.file) })?;
        let span = frames.last().map_or(SimDuration::ZERO, |f| f.0);
        let mean_gap = mean_frame_interval(&frames);
        if mean_gap < MIN_MEAN_FRAME_INTERVAL {
            let message = format!(
                "{}: its {} frames span {span}, a mean frame interval of {mean_gap}; expected at least {MIN_MEAN_FRAME_INTERVAL} \
                 (frames sharing a time are fine; a trace that replays in no time would never let the clock advance)",
                self.file,
                frames.len()
            );
            return Err(ParamError { field: "file", message });
        }
        let period = if self.repeat.unwrap_or(true) { Some(span + mean_gap) } else { None };
        Ok(TraceConfig { frames: Arc::new(frames), period })
    }
    fn largest_message(cfg: &TraceConfig) -> Option<(&'static str, u64)> {
        cfg.frames.iter().map(|f| f.1).max().map(|b| ("file", b))
    }
    fn peak_bps(cfg: &TraceConfig) -> Option<f64> {
        // The largest frame at every mean interval: above the trace's mean rate, as a peak is.
        let mean_interval = mean_frame_interval(&cfg.frames).as_secs_f64();
        cfg.frames.iter().map(|f| f.1).max().map(|b| b as f64 * 8.0 / mean_interval.max(1e-6))
    }
    fn held_bytes(cfg: &TraceConfig) -> u64 {
        (cfg.frames.len() * std::mem::size_of::<(SimDuration, u64)>()) as u64
    }
        fn build(cfg: &TraceConfig, _packet: Bytes) -> Trace {
        Trace { cfg: cfg.clone(), next: 0, replay_start: SimTime::ZERO, stopped: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_trace_libraries_format_and_names_the_bad_line() {
        let text = "# frame time type size\n0 0 I 5000\n1\t40\tP\t1200\t35.1\n2,80,B,300\n\n3 120 P 0\n";
        let frames = parse_trace(text, TimeUnit::Ms).unwrap();
        assert_eq!(frames.len(), 4);
        assert_eq!(frames[1], (SimDuration::from_millis(40), 1200));
        assert_eq!(parse_trace("0 0 I -5\n", TimeUnit::Ms).unwrap_err(), "line 1: size \"-5\" is not a whole number of bytes ≥ 0");
        assert_eq!(parse_trace("0 0 I 10\n1 x P 5\n", TimeUnit::Ms).unwrap_err(), "line 2: time \"x\" is not a number ≥ 0");
        assert!(parse_trace("0 40 I 10\n1 0 P 5\n", TimeUnit::Ms).unwrap_err().starts_with("line 2: time 0 comes before"));
        assert!(parse_trace("# nothing\n", TimeUnit::Ms).is_err());
    }

    #[test]
    fn replays_frames_at_their_times_and_repeats() {
        let cfg = TraceConfig { frames: Arc::new(vec![(SimDuration::ZERO, 100), (SimDuration::from_millis(40), 200)]), period: Some(SimDuration::from_millis(80)) };
        let mut t = TraceSpec::build(&cfg, Bytes(1500));
        let mut rng = crate::rng::derive_stream(1, crate::rng::StreamKind::Flow, 0);
        let start = SimTime::ZERO + SimDuration::from_secs(1);
        let mut at = t.start(start, &mut rng).unwrap();
        let mut seen = Vec::new();
        for _ in 0..4 {
            let step = t.on_timer(at, &mut rng);
            seen.push((at.saturating_since(start).as_millis_f64(), step.write));
            at = step.next.unwrap();
        }
        assert_eq!(seen, vec![(0.0, Write::Bytes(100)), (40.0, Write::Bytes(200)), (80.0, Write::Bytes(100)), (120.0, Write::Bytes(200))]);
    }
}
