"""Load-more's page records: one sealed ``PageRecord`` per turn and slot (a counted
source), saved with the answer and replaced as further pages are fetched."""

from __future__ import annotations

from beacon.store.backends import Tx
from beacon.store.core import TURN_OWNER, StoreCore
from beacon.store.records import PageRecord


class PageRecords(StoreCore):
    """What load-more needs to fetch and stitch the next page of one source."""

    def _write_pages(
        self, tx: Tx, turn_id: str, slot: str, record: PageRecord, owner: str | None = None
    ) -> None:
        owner = owner if owner is not None else self._owner_of_turn(tx, turn_id) or ""
        body = self._seal(record.model_dump_json(), owner, turn_id, "pages", slot)
        tx.execute(
            "INSERT INTO pages (turn_id, slot, body) VALUES (?, ?, ?) "
            "ON CONFLICT (turn_id, slot) DO UPDATE SET body = excluded.body",
            (turn_id, slot, body),
        )

    def save_pages(self, turn_id: str, slot: str, record: PageRecord) -> None:
        with self.transaction() as tx:
            self._write_pages(tx, turn_id, slot, record)

    def page_slots(self, turn_id: str) -> list[str]:
        """The slots of a turn that kept a load-more record."""
        rows = self.read(
            lambda db: db.execute(
                "SELECT slot FROM pages WHERE turn_id = ? ORDER BY slot", (turn_id,)
            ).fetchall()
        )
        return [str(r[0]) for r in rows]

    def load_page_record(self, turn_id: str, slot: str) -> PageRecord | None:
        return self._get_record(
            PageRecord,
            "SELECT body FROM pages WHERE turn_id = ? AND slot = ?",
            (turn_id, slot),
            TURN_OWNER,
            turn_id,
            "pages",
            slot,
        )
