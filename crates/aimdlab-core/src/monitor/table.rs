//! A small columnar table, the form results leave the engine in (→ Arrow in Python).

/// One column of values.
#[derive(Clone, Debug, PartialEq)]
pub enum Column {
    /// Floating-point values (NaN for "not available").
    F64(Vec<f64>),
    /// Unsigned integers.
    U64(Vec<u64>),
    /// Strings.
    Str(Vec<String>),
    /// A category per row: codes into the list of names (Arrow's dictionary column).
    Dict(Vec<u32>, Vec<&'static str>),
    /// Floating-point values, each repeated over a run of rows: value `i` is rows
    /// `i·run .. (i+1)·run` (the sample time of a time series, one row per flow per sample).
    F64Runs(Vec<f64>, usize),
    /// Unsigned integers repeated in turn: the rows are the values, `cycles` times over (the
    /// flows of a time series, the same at every sample).
    U64Cycle(Vec<u64>, usize),
}

impl From<Vec<f64>> for Column {
    fn from(v: Vec<f64>) -> Self {
        Column::F64(v)
    }
}

impl From<Vec<u64>> for Column {
    fn from(v: Vec<u64>) -> Self {
        Column::U64(v)
    }
}

impl Column {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Column::F64(v) => v.len(),
            Column::U64(v) => v.len(),
            Column::Str(v) => v.len(),
            Column::Dict(v, _) => v.len(),
            Column::F64Runs(v, run) => v.len() * run,
            Column::U64Cycle(v, cycles) => v.len() * cycles,
        }
    }
    /// The values of a floating-point column, one per row (a repeated one expanded).
    pub fn to_f64(&self) -> Option<Vec<f64>> {
        match self {
            Column::F64(v) => Some(v.clone()),
            Column::F64Runs(v, run) => Some(v.iter().flat_map(|&x| std::iter::repeat_n(x, *run)).collect()),
            _ => None,
        }
    }
    /// The values of an unsigned-integer column, one per row (a repeated one expanded).
    pub fn to_u64(&self) -> Option<Vec<u64>> {
        match self {
            Column::U64(v) => Some(v.clone()),
            Column::U64Cycle(v, cycles) => Some((0..*cycles).flat_map(|_| v.iter().copied()).collect()),
            _ => None,
        }
    }
    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Named columns of equal length.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// (name, values) in display order.
    pub columns: Vec<(String, Column)>,
}

impl Table {
    /// Adds a column.
    pub fn push(&mut self, name: &str, col: Column) {
        debug_assert!(self.columns.first().is_none_or(|(_, c)| c.len() == col.len()));
        self.columns.push((name.to_string(), col));
    }
    /// The column called `name`.
    pub fn get(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|(n, _)| n == name).map(|(_, c)| c)
    }
    /// Number of rows.
    pub fn num_rows(&self) -> usize {
        self.columns.first().map_or(0, |(_, c)| c.len())
    }
}
