"""The loop package's one exception root.

LoopError                 a turn cannot finish with an answer
 ├── FinalizationError    the answer call produced nothing publishable
 │                        (code: answer_rejected, answer_refused, answer_deadline,
 │                         input_too_large, answer_too_large, answer_filtered,
 │                         answer_unfinished)
 ├── FrameOrderError      the frame table refused a frame (code: internal; a bug)
 │                        (beacon/loop/frames.py, beside the emitter that raises it)
 ├── TurnBlocked          a safety filter blocked the question or the answer
 │                        (code: blocked; beacon/loop/filters.py)
 └── FilterError          a safety filter cannot be loaded (start-up) or failed on a
                          turn (code: filter_failed; beacon/loop/filters.py)
"""


class LoopError(Exception):
    code = "turn_failed"


class FinalizationError(LoopError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
