"""The papers' experiments beyond what a sweep definition says: one module per paper —
`dccp_thesis` (the thesis's scenarios), `gaimd` (series its figures draw)."""
