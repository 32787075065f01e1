/** The lines of a postal address: name, street lines, "City STATE postcode", country (and a phone when given). */
export function PostalAddress({
  address,
  className = 'not-italic leading-relaxed',
}: {
  address: {
    fullName: string;
    addressLine1: string;
    addressLine2?: string | null;
    city: string;
    state: string;
    postalCode: string;
    country: string;
    phoneNumber?: string | null;
  };
  className?: string;
}) {
  const lines = [
    address.fullName,
    address.addressLine1,
    address.addressLine2,
    `${address.city} ${address.state} ${address.postalCode}`,
    address.country,
    address.phoneNumber,
  ].filter((line): line is string => Boolean(line));
  return (
    <address className={className}>
      {lines.map((line, index) => (
        <span key={`${index}-${line}`} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}
