"""The papers' experiments, rebuilt as scenarios: one module per paper (`dccp_thesis` so far;
`aimdlab reproduce` will run them all)."""
