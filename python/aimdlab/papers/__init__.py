"""The papers' experiments beyond what a sweep definition says: one module per paper —
`dccp_thesis` (the thesis's scenarios), `gaimd` and `mr_aimd` (series their figures draw, and
their analytic models as `aimdlab reproduce` judges them), `new_aimd` (the per-second
utilization of its Fig. 3-6)."""
