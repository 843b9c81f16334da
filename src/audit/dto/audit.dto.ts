import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export class AuditQuery {
  @ApiPropertyOptional({
    enum: ['0', '1', 'true', 'false'],
    description: '1: answer as a file download (Content-Disposition: attachment; filename="fairdice-<id>.json")',
  })
  @IsOptional()
  @IsIn(['0', '1', 'true', 'false'])
  download?: string;
}
