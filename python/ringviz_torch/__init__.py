"""ringviz_torch: records a live torch.distributed training job for ringviz.

    with ringviz_torch.record(ddp_model, optimizer, out="job/"):
        train()

Each rank writes `job/rank-<R>.json` (docs/job-format.md); `ringviz job import job/ --out
job.json` joins them.

    recorder.add_memory(ringviz_torch.measure(ddp_model, optimizer, forward_loss, layers, shape,
                                              "ddp", "none"))

measures one training step's bytes term by term into the same part (`ringviz memory --from-job`).
"""

from .memory import measure
from .recorder import Recorder, record

__all__ = ["Recorder", "measure", "record"]
