"""Shared rendered fixtures: small frames of the 2-player board, one printing of the tokens."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import maps
from vision import layout
from vision.classify import enroll
from vision.observe import Calibration
from vision.render import TIERS, Session, enrollment_samples
from vision.settings import Settings

SMALL = (1280, 720)
DESIGN = 5


def small(tier: str, **changes):
    return dataclasses.replace(TIERS[tier], frame_size=SMALL, **changes)


@pytest.fixture(scope="session")
def settings():
    return Settings()


@pytest.fixture(scope="session")
def geometry2p():
    return layout.generate(maps.load("2p"))


@pytest.fixture(scope="session")
def model(settings):
    return enroll(settings, enrollment_samples(DESIGN, per_label=3, seed=1))


@pytest.fixture(scope="session")
def clean_session(geometry2p):
    return Session(geometry2p, seed=11, design_seed=DESIGN, realism=small("clean"))


@pytest.fixture(scope="session")
def realistic_session(geometry2p):
    return Session(geometry2p, seed=12, design_seed=DESIGN, realism=small("realistic"))


@pytest.fixture(scope="session")
def clean_calibration(settings, geometry2p, clean_session):
    return Calibration.build(settings, geometry2p, clean_session.empty())


def region_accuracy(truth, obs) -> tuple[int, int]:
    right = sum(1 for rid, tokens in truth.regions.items()
                if (rid in truth.occluded) == obs.regions[rid].occluded
                and (rid in truth.occluded or tokens == obs.regions[rid].tokens))
    return right, len(truth.regions)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
