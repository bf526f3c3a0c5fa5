"""Every tunable number of the vision pipeline, with defaults that work on the simulated table."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # rectification
    px_per_mm: float = 1.5          # resolution of the rectified board
    view_margin_mm: float = 8.0     # board shown around the play area in rectified images
    # registration
    detect_scale: float = 0.5       # full-frame marker search runs on a frame downscaled by this
    roi_scale: float = 0.5          # re-check window around each known marker, in marker sides (each way)
    max_reprojection_px: float = 4.0
    steady_px: float = 1.0          # markers within this of the last registration keep its homography
    moved_px: float = 3.0           # markers this far from where they were mean the camera moved
    # stillness
    still_width: int = 160          # width of the thumbnail compared between frames
    still_delta: float = 12.0       # grey levels a thumbnail pixel must change by to count as moving
    still_share: float = 0.002      # share of moving thumbnail pixels above which the scene moves
    still_seconds: float = 0.5      # how long the scene must be still before an observation
    # detection
    diff_threshold: float = 0.07    # relative colour difference to the empty board that marks a token
    edge_threshold: float = 0.0     # new edge strength, relative to brightness, that marks a token (0: off)
    faint_threshold: float = 0.035  # mean relative difference over a window that extends a token (0: off)
    faint_window: int = 7           # side of that window, px
    strong_threshold: float = 0.15  # that mean over a part of a clear blob: a whole token there, not a faint piece's
    faint_tokens: float = 3.5       # fragments joined by a faint area are one piece up to this many tokens' area
    light_cells: tuple = (6, 8)     # rows, columns of the grid on which a change of light is measured
    light_tolerance: float = 0.04   # cells within this of the overall gain: one gain for the whole board
    min_token_share: float = 0.3    # blobs smaller than this share of a token are noise
    speck_share: float = 0.05       # ... but a change this share of a token and up is reported as a speck (0: none)
    split_at: float = 1.5           # a blob this many tokens large is looked at for touching pieces
    core_share: float = 0.45        # a piece's core lies this share of a token's radius inside its outline
    row_share: float = 0.45         # a blob 2 - row_share times longer than wide is two pieces in a row
    neck_share: float = 0.75        # touching pieces are cut where the blob narrows to this share of the smaller one
    solid: float = 0.8              # a blob filling less of its hull is fragments of one piece (cut as its hull)
    occluder_tokens: float = 7.0    # a blob this many tokens large is a hand or arm
    room_share: float = 0.5         # a piece holds a disc this share of a token's radius (a narrower blob is none)
    lit_room_share: float = 0.6     # what the light leaves of a blob is a piece where such a disc fits (else its edge)
    rim_edge: float = 0.015         # ... and whose outline is an edge the board lacks: the frame's median change across it (0: off)
    stand_out: float = 1.2          # a piece with no rim changed this much more inside than the board around it (0: off)
    pressed_share: float = 0.5      # a token against a hand: a part of another colour where a disc this share of its radius fits
    skin_ratio: float = 1.25        # a hand is one colour, shaded: channels within this ratio of its own, its light within the square
    shadow_band: int = 8            # px along a hand's outline where the board in its shadow is told apart per pixel
    palm_share: float = 2.2         # a hand holds a disc this many token radii wide (its palm, its arm) farther from its outline
    board_colour: float = 1.2       # a hand-sized part with no palm: the board's colour, only lit otherwise (channels within this), is board (0: off)
    glare_hand: bool = True         # a hand reaching into the lamp's glare, once the glare at play is undone, is found as without it
    on_board: float = 0.5           # a piece has this share of its pixels on the regions at least (not the margin)
    occluded_tokens: float = 0.5    # a region with half a token's area under a hand is occluded (one could lie hidden)
    # The board under other light (a shadow, a glare spot) is not a hand: its print shows through.
    lit_window: int = 5             # side of the window (half-size px) in which the frame's print is compared
    lit_correlation: float = 0.5    # correlation with the reference's print there that is the board itself
    lit_detail: float = 2.0         # print is grey less its surroundings this wide (half-size px): no slope of light
    lit_texture: float = 1.5        # grey levels of print (std in the window) the board needs for that test
    glare_correction: bool = True   # subtract the lamp's glare seen on the empty board from token colours
    glare_chroma: float = 0.15      # a terrain this saturated shows how much grey the glare adds to its regions
    glare_min: float = 10.0         # grey levels of colourless excess over a region's colour that count as glare
    same_lamp: float = 0.2          # the light at play within this of calibration's (channels summed): its glare too
    saturated: int = 245            # pixels this bright are blinded by glare: a piece's share of them lowers its confidence
    glare_bright: float = 0.75      # where glare blinded the reference, a frame this share of that bright in every channel is still glare
    # classification
    feature_px: int = 24            # side of the normalised token patch
    neighbours: int = 1             # a label's distance: mean over its this many nearest enrolled views
    augment: int = 12               # augmented copies of each enrollment sample
    one_occupant_per_region: bool = True  # rules: one race (or the Lost Tribe) per region
    mountains_on_mountain_regions: bool = True  # rules: a Mountain on each Mountain region, none elsewhere
    few_races_in_decline: bool = True  # rules: one race in decline a player; a lone one alike another is it
    few_active_races: bool = True   # rules: one active race a player (and the Lost Tribe): the same for them
    decline_ratio: float = 2.0      # ... when the other is at most this much farther (summed over the region)
    mountain_kin_ratio: float = 5.0  # a piece this much more like a Mountain than its region's kin is one's fragment
    mountain_part_ratio: float = 1.5  # a piece touching the Mountain, a Mountain at most this much farther: part of it
    mountain_fragment_ratio: float = 8.0  # with no Mountain read there, the piece this near one is its fragment (0: off)
    mountain_apart: float = 1.5     # ... when the region's other pieces are this much farther from a Mountain
    mountain_body: float = 0.015    # ... alone, when the board beside it changed this much more on one side (0: off)
    mountain_specks: bool = True    # a Mountain region with no Mountain read but a speck of change: its Mountain's cap
    mountain_in_sight: float = 1.5  # a Mountain enrolled this many race tokens' area is never out of sight on its region (0: off)
    mountain_grey: float = 0.2      # ... where none was read, no speck, a grey side read less sure than this is its fragment (0: off)
    vote_ratio: float = 4.0         # a token keeps its own label if the region's is this much farther
    token_on_piece: float = 1.5     # a piece read this many tokens large may hold a race token laid on it (0: off)
    piece_kin_ratio: float = 1.25   # a piece read as a special piece, its region's race at most this much farther: that race (0: off)
    size_weight: float = 3.0        # how much farther a kind is per squared log of the size ratio (sizes enrolled)
