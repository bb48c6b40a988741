"""The denial copy in five locales, as data: written by code, never by the model.

The user-facing copy may name the capability (the user needs to know what to ask
for); the prompts may not (the model must not narrate or bargain over access).
``beacon.policy.notices`` picks the sentence; this module only holds the words.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# capability → locale → label; rows are the capabilities of capabilities.py.
CAPABILITY_LABELS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "core": {"en": "Core", "ko": "기본", "ja": "基本", "de": "Basis", "es": "Básico"},
        "photo_ai": {
            "en": "Photo AI",
            "ko": "사진 AI",
            "ja": "写真AI",
            "de": "Foto-KI",
            "es": "IA de fotos",
        },
        "analytics": {
            "en": "Analytics",
            "ko": "분석",
            "ja": "分析",
            "de": "Analysen",
            "es": "Analítica",
        },
        "documents": {
            "en": "Documents",
            "ko": "문서",
            "ja": "ドキュメント",
            "de": "Dokumente",
            "es": "Documentos",
        },
        "progress": {
            "en": "Progress",
            "ko": "진행 현황",
            "ja": "進捗",
            "de": "Fortschritt",
            "es": "Progreso",
        },
        "bim": {"en": "BIM", "ko": "BIM", "ja": "BIM", "de": "BIM", "es": "BIM"},
    }
)

DENIAL_TEMPLATES: Mapping[str, str] = MappingProxyType(
    {
        "en": "This requires the {label} capability, which your current plan does not include.",
        "ko": "이 작업에는 {label} 기능이 필요하지만 현재 플랜에 포함되어 있지 않습니다.",
        "ja": "この操作には{label}機能が必要ですが、現在のプランには含まれていません。",
        "de": "Dafür ist die Funktion „{label}“ nötig, die Ihr aktueller Tarif nicht enthält.",
        "es": "Esto requiere la función «{label}», que tu plan actual no incluye.",
    }
)

# For a tool outside the map: there is no capability to name, and naming the
# tool would tell the user about something they were never shown.
UNAVAILABLE_TEXT: Mapping[str, str] = MappingProxyType(
    {
        "en": "This isn't available with your current plan.",
        "ko": "현재 플랜에서는 이 작업을 사용할 수 없습니다.",
        "ja": "現在のプランではこの操作を利用できません。",
        "de": "Das ist mit Ihrem aktuellen Tarif nicht verfügbar.",
        "es": "Esto no está disponible con tu plan actual.",
    }
)
