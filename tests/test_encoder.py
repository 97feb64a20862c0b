"""Encoders: the hashing double, and the real MiniLM ONNX model end to end."""

from __future__ import annotations

import numpy as np
import pytest

import regnb

from .conftest import doc


def test_hashing_encoder_is_deterministic_and_normalised():
    enc = regnb.HashingEncoder()
    a = enc.encode(["sterility failure", "sterility failure", ""])
    assert a.shape == (3, 384) and a.dtype == np.float32
    assert np.allclose(a[0], a[1]) and np.isclose(np.linalg.norm(a[0]), 1.0)
    assert not a[2].any()


@pytest.mark.slow
def test_minilm_embeds_by_meaning():
    enc = regnb.MiniLMEncoder()
    v = enc.encode(
        [
            "sterility assurance failure",
            "aseptic processing was not validated",
            "quarterly earnings call",
        ]
    )
    assert v.shape == (3, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2
    # batching and ordering by length give the same vectors as one at a time
    assert np.allclose(enc.encode(["aseptic processing was not validated"])[0], v[1], atol=1e-4)


@pytest.mark.slow
def test_search_with_the_real_model_end_to_end(tmp_path):
    regnb.write_corpus(
        tmp_path,
        {
            "fda_warning_letters": [
                doc(
                    "Letter A",
                    [
                        "Your firm failed to validate aseptic processing; media fills "
                        "showed microbial contamination of sterile injectables."
                    ],
                ),
                doc(
                    "Letter B",
                    [
                        "Your firm failed to keep complaint files for device "
                        "malfunctions and labeling."
                    ],
                ),
            ],
            "fda_483": [
                doc(
                    "483 C",
                    ["The firm failed to establish written procedures for cleaning of equipment."],
                )
            ],
        },
        progress=False,
    )
    with regnb.open(tmp_path) as eng:
        res = eng.search(["failed"], query="sterile drug contamination in aseptic manufacturing")
    assert res.ranking == "similarity"
    assert res.to_dict()["results"][0]["title"] == "Letter A"


def test_a_corpus_opened_with_another_encoder_is_refused(tmp_path):
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with pytest.raises(regnb.InvalidRequest):
        regnb.open(tmp_path, encoder=regnb.HashingEncoder(dim=16))
