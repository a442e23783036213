"""align: gold evidence onto parsed units and chunks; parse and retrieval fidelity.

Public names are re-exported here, one import per line.
"""

from align.evidence import EvidenceResult as EvidenceResult
from align.evidence import QuestionReport as QuestionReport
from align.evidence import evidence_report as evidence_report
from align.evidence import evidence_summary as evidence_summary
from align.fidelity import fidelity as fidelity
from align.locate import ChunkLike as ChunkLike
from align.locate import Locator as Locator
from align.locate import Match as Match
from align.locate import locate as locate
from align.normalize import NormalizedText as NormalizedText
from align.normalize import markup_to_text as markup_to_text
from align.normalize import normalize as normalize
from align.normalize import normalize_text as normalize_text
from align.project import Projection as Projection
from align.project import ProjectionConfig as ProjectionConfig
from align.project import UnitProjection as UnitProjection
from align.project import project as project
from align.readers import Evidence as Evidence
from align.readers import QARecord as QARecord
from align.readers import read_qa as read_qa
from align.retrieval import RetrievalReport as RetrievalReport
