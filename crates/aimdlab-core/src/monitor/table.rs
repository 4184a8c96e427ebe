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
}

impl Column {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Column::F64(v) => v.len(),
            Column::U64(v) => v.len(),
            Column::Str(v) => v.len(),
            Column::Dict(v, _) => v.len(),
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
