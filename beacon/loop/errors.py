"""The loop package's one exception root.

LoopError                 a turn cannot finish with an answer
 ├── FinalizationError    the answer call produced nothing publishable
 │                        (code: answer_rejected, answer_refused, answer_deadline,
 │                         input_too_large, answer_too_large, answer_filtered,
 │                         answer_unfinished)
 └── FrameOrderError      the frame table refused a frame (code: internal; a bug)
                          (beacon/loop/frames.py, beside the emitter that raises it)
"""


class LoopError(Exception):
    code = "turn_failed"


class FinalizationError(LoopError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
