"""One home per paper for its code (its definitions and sweeps are data, in
`experiments/<paper>/`): `gaimd` (the series its figures draw, its analytic model as `aimdlab
reproduce` judges it, `accuracy` — eq. 2 against simulation, `aimdlab validate gaimd` — and
the scripts `friendliness` and `crosscheck_friendliness`), `mr_aimd` (series and model),
`new_aimd` (both New-AIMD papers' measures), `dccp_thesis` (the thesis's scenarios, and
`run`, which runs them), and `profile_tables` (two papers' tables under every stack profile).
The field's analytic models, which more than one paper uses, are `aimdlab.models`."""
