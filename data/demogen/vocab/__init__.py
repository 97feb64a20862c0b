"""Phrase tables for the synthetic demo corpus (`demogen`): names, places, products, templates.

Everything here is invented or generic regulatory boilerplate. Templates are `str.format_map`
strings; the slots they use are filled by `demogen` from a per-document context. One module per
topic: `firms`, `drugs`, `devices`, `inspections`, `letters`, `recalls`, `adverse_events`,
`approvals`, `programs` (trials, guidance, user fees), `records` (titles, keys, catalog fields)
and `slots` (slots filled on demand).
"""
