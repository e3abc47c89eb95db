"""ringviz_torch: records a live torch.distributed training job for ringviz.

    with ringviz_torch.record(ddp_model, optimizer, out="job/"):
        train()

Each rank writes `job/rank-<R>.json` (docs/job-format.md); `ringviz job import job/ --out
job.json` joins them.
"""

from .recorder import Recorder, record

__all__ = ["Recorder", "record"]
