import { turnUndoJournalContract } from './contracts/turn-undo-journal.contract.js';
import { InMemoryTurnUndoJournal } from './in-memory-turn-undo-journal.js';

turnUndoJournalContract('InMemoryTurnUndoJournal', async () => new InMemoryTurnUndoJournal());
