/** Dice as buttons: each says its face and whether it is held (or selected), for eyes and screen readers. */
const PIPS: Record<number, number[]> = {
  1: [4],
  2: [0, 8],
  3: [0, 4, 8],
  4: [0, 2, 6, 8],
  5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8],
};

export function Die(props: {
  index: number;
  face: number;
  pressed: boolean;
  pressedWord: string;
  disabled: boolean;
  onToggle: () => void;
}) {
  const { index, face, pressed, pressedWord, disabled, onToggle } = props;
  return (
    <button
      type="button"
      className={pressed ? 'die pressed' : 'die'}
      aria-pressed={pressed}
      aria-label={`Die ${index + 1}: ${face}${pressed ? `, ${pressedWord}` : ''}`}
      disabled={disabled}
      onClick={onToggle}
    >
      <span className="pips" aria-hidden="true">
        {Array.from({ length: 9 }, (_, i) => (
          <span key={i} className={PIPS[face]?.includes(i) ? 'pip on' : 'pip'} />
        ))}
      </span>
      <span className="die-key" aria-hidden="true">
        {index + 1}
      </span>
    </button>
  );
}

/** Keys typed outside a text field: '1'…'9' and the letters/space the boards use. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName);
}
